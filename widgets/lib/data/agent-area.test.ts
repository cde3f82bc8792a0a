import { describe, expect, it } from 'vitest';
import { leadSource, leadsCsv, leadWhy } from './agent-area.ts';

describe("the agents' area's data", () => {
  it('writes CSV a spreadsheet reads as written: every cell quoted, quotes doubled, a formula kept as text', () => {
    const csv = leadsCsv(
      ['name', 'message', 'phone'],
      [
        ['Ana "La Flaca"', '=HYPERLINK("http://evil")', '+593 99'],
        ['Luis', 'línea 1\nlínea 2', null],
      ],
    );
    expect(csv).toBe(
      '"name","message","phone"\r\n"Ana ""La Flaca""","\'=HYPERLINK(""http://evil"")","\'+593 99"\r\n"Luis","línea 1\nlínea 2",""\r\n',
    );
    for (const start of ['-1', '@SUM(A1)', '\tx', '\rx']) expect(leadsCsv(['a'], [[start]])).toContain(`"'${start}"`);
  });

  it("names where a lead came from by its page's site, else its element", () => {
    expect(leadSource({ page_url: 'https://ana.example.com/casas?x=1', element: 'exp-property-search' })).toBe(
      'ana.example.com',
    );
    expect(leadSource({ page_url: 'not an address', element: 'exp-inquiry-form' })).toBe('exp-inquiry-form');
    expect(leadSource({ page_url: null, element: null })).toBe('');
  });

  it("says why a lead is its owner's: the routing, the team's hand, or how it came", () => {
    const lead = { recipient_kind: 'lead_agent', assigned: false, routed: null, owner_agent_id: 3 } as const;
    expect(leadWhy(lead)).toBe('website');
    expect(leadWhy({ ...lead, recipient_kind: 'routed', routed: { by: 'rule', rule_id: 2 } })).toBe('rule');
    expect(leadWhy({ ...lead, recipient_kind: 'routed', routed: { by: 'spread' } })).toBe('spread');
    expect(leadWhy({ ...lead, assigned: true })).toBe('reassigned');
    expect(leadWhy({ ...lead, assigned: true, owner_agent_id: null })).toBe('toTeam');
    expect(leadWhy({ ...lead, recipient_kind: 'area_agent' })).toBe('area');
  });
});
