/**
 * The link previews' images (docs/decisions.md #24): a listing's or an agent's photo as a 1200x630
 * JPEG (/og/listings/7.jpg, /og/agents/3.jpg), and every indexable page's own card made from the
 * page as rendered (/og/pages/about.es.jpg, previews.ts). Remote photos come only through the safe
 * fetcher (images.ts); a failure serves the default picture, briefly cached.
 */
import type { Lang } from '../../core/lang.ts';
import type { RequestContext } from '../http/request-context.ts';
import { normaliseImages } from '../../core/protocol/listing.ts';
import type { OgImage } from './head.tsx';
import { createImageCache, OG_SIZE, versionOf } from './images.ts';
import { DEFAULT_PICTURE, type PageKit } from './page-kit.ts';
import type { PageImages } from './page-handlers.ts';
import { cardOf, cardVersion, renderCard } from './previews.ts';
import type { PageResponse } from './send.ts';

export function createPreviewImages(
  kit: PageKit,
  indexedPage: (route: string, lang: Lang) => Promise<PageResponse | undefined>,
) {
  const { options, origin, siteData, picture } = kit;
  const images = createImageCache({
    dir: options.imageCacheDir,
    fallback: () => picture(DEFAULT_PICTURE),
    sources: options.imageSources,
    ...(options.log ? { log: options.log } : {}),
  });

  const links: PageImages = {
    /** The page's link preview: its own card (previews.ts), at an address that changes with it. */
    pageImage(route: string, lang: Lang, rendered: string): OgImage {
      const card = cardOf(rendered, DEFAULT_PICTURE);
      const name = route === '/' ? '/index' : route;
      return {
        url: new URL(`/og/pages${name}.${lang}.jpg?v=${cardVersion(card)}`, origin()).href,
        width: OG_SIZE.width,
        height: OG_SIZE.height,
        alt: card.title,
      };
    },
    ogUrl: (kind, id, source) =>
      new URL(`/og/${kind}/${encodeURIComponent(id)}.jpg${source ? `?v=${versionOf(source)}` : ''}`, origin()).href,
  };

  /** /og/pages/about.es.jpg: the card of an indexable page, made from that page as it is rendered. */
  async function pageCard(route: string, lang: Lang): Promise<PageResponse | undefined> {
    const page = await indexedPage(route, lang);
    if (!page || page.status !== 200 || typeof page.body !== 'string') return undefined;
    const card = cardOf(page.body, DEFAULT_PICTURE);
    const image = await images.composed(`page\n${cardVersion(card)}`, OG_SIZE.width, OG_SIZE.height, async () =>
      renderCard(card, picture(card.picture)),
    );
    return {
      status: 200,
      type: 'image/jpeg',
      body: image.body,
      headers: {
        'Cache-Control': 'public, max-age=86400, s-maxage=86400',
        'X-Image-Cache': image.cached ? 'hit' : 'miss',
      },
    };
  }

  /** /og/listings/7.jpg, /og/agents/3.jpg: the first photo, 1200x630; immutable when asked by its version. */
  async function photo(
    kind: 'listings' | 'agents',
    id: string,
    version: string | null,
    request?: RequestContext,
  ): Promise<PageResponse> {
    const d = siteData(request);
    let source: string | undefined;
    if (kind === 'listings') {
      const row = await d.listing(id);
      if (!row) return { status: 404, type: 'text/plain', body: 'Not found' };
      source = normaliseImages(row.images, options.mediaBase())[0];
    } else {
      const agent = await d.agent(id);
      if (!agent) return { status: 404, type: 'text/plain', body: 'Not found' };
      source = normaliseImages(agent.picture, options.mediaBase())[0];
    }
    const made = performance.now();
    const image = await images.jpeg(source ?? 'about:blank', OG_SIZE.width, OG_SIZE.height);
    // an image made (not read from the cache) took the server's time: its client's share pays
    if (!image.cached && request) options.charge?.(request.client, performance.now() - made);
    const current = source ? versionOf(source) : null;
    const immutable = version !== null && version === current;
    return {
      status: 200,
      type: 'image/jpeg',
      body: image.body,
      // the default picture in place of a photo that failed is not kept long: the photo may come back
      headers: {
        'Cache-Control': image.fallback
          ? 'public, max-age=600, s-maxage=600'
          : immutable
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=3600, s-maxage=3600',
        'X-Image-Cache': image.cached ? 'hit' : 'miss',
      },
    };
  }

  return { links, pageCard, photo };
}
