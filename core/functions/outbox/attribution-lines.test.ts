import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import es from '../../locales/es.json';
import { mailTexts } from './bilingual.ts';
import { attributionLines } from './attribution-lines.ts';

describe('where a lead came from, in the mails (core/functions/outbox/attribution-lines.ts)', () => {
  it("shows a mail's lines only for what is known", () => {
    const { both } = mailTexts((lang) => (lang === 'es' ? es : en));
    expect(
      attributionLines(
        {
          origin: 'https://agente.example',
          page: null,
          element: 'exp-property-search',
          utm: { utm_source: 'facebook', utm_campaign: 'cumbaya' },
        },
        both,
      ),
    ).toEqual([
      ['Sitio / Site', 'https://agente.example'],
      ['Elemento / Element', 'exp-property-search'],
      ['Campaña / Campaign', 'cumbaya / facebook'],
    ]);
    expect(attributionLines({ origin: null, page: null, element: null, utm: null }, both)).toEqual([]);
  });
});
