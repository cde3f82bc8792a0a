import { describe, expect, it } from 'vitest';
import { findLocation } from '../../core/locations.ts';
import { searchHero, searchHeroHtml } from '../../core/search-hero.ts';
import { cardOf } from './previews.ts';

describe("a page's link preview (cardOf)", () => {
  it("takes the picture of the place's hero: Manta's search page shows the coast, not the default", () => {
    const manta = findLocation('manta');
    const html = `<html><head><meta property="og:site_name" content="eXp Realty Ecuador" /></head><body>${searchHeroHtml(
      searchHero({ known: manta }),
    )}</body></html>`;
    expect(cardOf(html, '/media/default.webp').picture).toBe('/media/video/coast-poster.webp');
    // the picture the page preloads first, when it names one
    const preloaded = `<link rel="preload" as="image" href="/media/video/cuenca-poster.webp" />${html}`;
    expect(cardOf(preloaded, '/media/default.webp').picture).toBe('/media/video/cuenca-poster.webp');
    expect(cardOf('<h1>Nothing</h1>', '/media/default.webp').picture).toBe('/media/default.webp');
  });
});
