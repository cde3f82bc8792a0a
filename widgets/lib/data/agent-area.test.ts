import { describe, expect, it } from 'vitest';
import { leadKind, leadsCsv, type Lead } from './agent-area.ts';

describe("the agents' area's data", () => {
  it('writes CSV a spreadsheet reads as written: every cell quoted, quotes doubled, a formula kept as text', () => {
    const csv = leadsCsv(
      ['name', 'message', 'phone'],
      [
        ['Ana "La Flaca"', '=HYPERLINK("http://evil")', '+593 99'],
        ['Luis', 'línea 1\nlínea 2', null],
      ],
    );
    expect(csv).toBe('"name","message","phone"\r\n"Ana ""La Flaca""","\'=HYPERLINK(""http://evil"")","\'+593 99"\r\n"Luis","línea 1\nlínea 2",""\r\n');
    for (const start of ['-1', '@SUM(A1)', '\tx', '\rx']) expect(leadsCsv(['a'], [[start]])).toContain(`"'${start}"`);
  });

  it('tells what a lead asked about', () => {
    const base = { seller: null, listing_id: null, property_title: null } as unknown as Lead;
    expect(leadKind({ ...base, seller: { facts: {} } })).toBe('valuation');
    expect(leadKind({ ...base, listing_id: 7 })).toBe('listing');
    expect(leadKind(base)).toBe('general');
  });
});
