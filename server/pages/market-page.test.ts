import { describe, expect, it } from 'vitest';
import en from '../../core/locales/en.json' with { type: 'json' };
import es from '../../core/locales/es.json' with { type: 'json' };
import { translatorFor } from '../../core/translate.ts';
import type { MarketFigure } from '../../core/protocol/market.ts';
import { renderMarket } from './market-page.tsx';

describe("a sector's market report", () => {
  // last month's figure of the sector, and nothing of its city: the report the index gives a sector
  const figure: MarketFigure = {
    month: '2026-11-01',
    path: 'quito/inaquito',
    name: 'Iñaquito',
    listings: 40,
    median: 1800,
    p25: 1500,
    p75: 2100,
    newListings: 6,
    priceCuts: 2,
    medianDays: 60,
  };
  const render = (cityName?: string) =>
    renderMarket(
      'quito/inaquito',
      { all: [figure], byType: [], ranking: [] },
      {
        lang: 'en',
        t: translatorFor(en, 'en'),
        origin: 'https://example.org',
        now: new Date('2026-12-04T12:00:00Z'),
        cityName,
      },
    ).body;
  const crumbs = (body: string) =>
    [
      ...(/<nav class="crumbs"[\s\S]*?<\/nav>/.exec(body)?.[0] ?? '').matchAll(
        /<li[^>]*>(?:<a [^>]*>|<span[^>]*>)?([^<]*)</g,
      ),
    ].map((m) => m[1]);

  it('names its city in the way back as the listings name it, not by its address', () => {
    expect(crumbs(render('Quito'))).toEqual(['Market reports', 'Quito', 'Iñaquito']);
    // without the name, the address is all there is
    expect(crumbs(render())).toEqual(['Market reports', 'quito', 'Iñaquito']);
  });

  it('says the price a m² once in its description, in both languages', () => {
    for (const lang of ['en', 'es'] as const) {
      const { head } = renderMarket(
        'quito/inaquito',
        { all: [figure], byType: [], ranking: [] },
        {
          lang,
          t: translatorFor(lang === 'en' ? en : es, lang),
          origin: 'https://example.org',
          now: new Date('2026-12-04T12:00:00Z'),
        },
      );
      const description = head.description ?? '';
      expect(description.match(/m²/g), description).toHaveLength(1);
      expect(description).toContain(lang === 'en' ? '$1,800/m² in ' : '$1,800/m² (');
    }
  });
});
