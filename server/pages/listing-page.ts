/**
 * A listing's own page (docs/decisions.md #12, #18): the listing in the HTML, readable without
 * JavaScript (a crawler, a link preview, a slow phone), then enhanced by <exp-property-detail>,
 * which takes the same row from the page and draws the detail the search's dialog shows. A listing
 * that is gone, or never was, gets a real 410 or 404 page with similar active listings.
 */
import type { Translate } from '../../core/translate.ts';
import { escapeHtml } from '../../core/fill.ts';
import { formatArea, formatCount, formatPrice, whatsappHref } from '../../core/protocol/format.ts';
import { daysOnMarket, directionsUrl, mapListing, typeLabel, type Property } from '../../core/protocol/listing.ts';
import { formatChange, formatEventDate, type PriceEvent } from '../../core/protocol/price-history.ts';
import { agentPath, listingPath, localizedPath } from '../../core/routes.ts';
import { shareLinks } from '../../core/protocol/share.ts';
import { jsonLdText, listingJsonLd } from '../../core/protocol/structured-data.ts';
import type { HeadInfo } from './head.ts';
import { attrs, contactItems, excerpt, photoHtml } from './html.ts';
import { PHOTO_SIZES } from '../../core/protocol/photos.ts';
import type { Row } from '../db/database.ts';
import type { Lang } from '../../core/lang.ts';

export interface ListingPageContext {
  lang: Lang;
  t: Translate;
  /** the public site, for absolute links */
  origin: string;
  /** where relative media paths of the data are served from */
  mediaBase: string;
  /** the listing's preview image (og:image) */
  imageUrl: (p: Property) => string;
}

/** What a search engine shows of a title: 70 characters as the page's source writes them (html-validate's long-title). */
const MAX_TITLE = 70;

/** The page title made by `make` around `text`, with `text` cut at a word (…) until it fits. */
function fitTitle(text: string, make: (text: string) => string): string {
  let title = make(text);
  for (let max = text.length - 1; escapeHtml(title).length > MAX_TITLE && max > 8; max -= 4) title = make(excerpt(text, max));
  return title;
}

export function listingFacts(p: Property, t: Translate): string {
  const parts = [];
  if (p.bedrooms > 0) parts.push(t('listing.beds', { count: p.bedrooms, formatted: formatCount(p.bedrooms) }));
  if (p.bathrooms > 0) parts.push(t('listing.baths', { count: p.bathrooms, formatted: formatCount(p.bathrooms) }));
  if (p.area > 0) parts.push(formatArea(p.area));
  return parts.join(', ');
}

export function toProperty(row: Row, ctx: Pick<ListingPageContext, 't' | 'mediaBase'>): Property {
  return mapListing(row, ctx.mediaBase, { title: ctx.t('listing.defaultTitle'), agentName: ctx.t('agent.defaultName') });
}

/** A link to a listing's page from a list (the similar listings), with its first photo. */
function listingTile(p: Property, ctx: ListingPageContext): string {
  const href = listingPath(p.id, p.title, ctx.lang);
  const photo = p.images[0];
  return `<li class="listing-tile"><a class="listing-tile__link" href="${escapeHtml(href)}">${
    photo ? photoHtml(photo, PHOTO_SIZES.tile, { alt: '', width: 400, height: 225, loading: 'lazy', decoding: 'async' }) : '<span class="listing-tile__photo"></span>'
  }<span class="listing-tile__price">${escapeHtml(formatPrice(p.price))}</span><span class="listing-tile__title">${escapeHtml(p.title)}</span><span class="listing-tile__place">${escapeHtml([p.city, typeLabel(p.propertyType, ctx.t)].filter(Boolean).join(' · '))}</span></a></li>`;
}

/** The listings most like this one (`like`), else more of its city, as links crawlers follow. */
export function similarSection(similar: Property[], city: string, ctx: ListingPageContext, like = false): string {
  if (!similar.length) return '';
  const { t, lang } = ctx;
  const search = localizedPath('/search-properties', lang) + (city ? `?city=${encodeURIComponent(city)}` : '');
  return `<section class="similar" aria-labelledby="similar-heading">
        <h2 id="similar-heading">${escapeHtml(city && !like ? t('site.listing.similarIn', { city }) : t('site.listing.similar'))}</h2>
        <ul class="listing-tiles">${similar.map((p) => listingTile(p, ctx)).join('')}</ul>
        <p><a class="btn btn--outline" href="${escapeHtml(search)}">${escapeHtml(t('site.listing.viewAll'))}</a></p>
      </section>`;
}

function breadcrumbs(p: Property, ctx: ListingPageContext): { html: string; jsonLd: unknown } {
  const { t, lang, origin } = ctx;
  const search = localizedPath('/search-properties', lang);
  const items: Array<[string, string]> = [[t('site.listing.search'), search]];
  if (p.city) items.push([t('site.listing.searchIn', { city: p.city }), `${search}?city=${encodeURIComponent(p.city)}`]);
  const html = `<nav class="crumbs" aria-label="${escapeHtml(t('site.listing.breadcrumb'))}"><ol>${items
    .map(([name, href]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(name)}</a></li>`)
    .join('')}<li aria-current="page">${escapeHtml(p.title)}</li></ol></nav>`;
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [...items, [p.title, listingPath(p.id, p.title, lang)] as [string, string]].map(([name, href], i) => ({ '@type': 'ListItem', position: i + 1, name, item: new URL(href, origin).href })),
  };
  return { html, jsonLd };
}

function agentBlock(p: Property, ctx: ListingPageContext): string {
  const a = p.agent;
  if (!a) return '';
  const { t, lang } = ctx;
  const whatsapp = whatsappHref(a.phone);
  const profile = a.id ? agentPath(a.id, lang) : '';
  const name = escapeHtml(a.name);
  return `<aside class="listing__agent" aria-labelledby="agent-heading">
            <h2 id="agent-heading">${escapeHtml(t('site.listing.agent'))}</h2>
            <p class="listing__agent-name">${a.photo ? `<img${attrs({ src: a.photo, alt: '', width: 56, height: 56, loading: 'lazy' })} />` : ''}${profile ? `<a href="${escapeHtml(profile)}">${name}</a>` : name}</p>
            <ul>${contactItems(a.email, a.phone)}${
              whatsapp ? `<li><a href="${escapeHtml(whatsapp)}" rel="noopener noreferrer" target="_blank">${escapeHtml(t('site.listing.whatsapp'))}</a></li>` : ''
            }</ul>
          </aside>`;
}

export interface RenderedListing {
  head: HeadInfo;
  body: string;
}

/** The price history and days on the market, as the detail shows them (widgets/lib/listing/price-history.tsx). */
function historySection(p: Property, history: PriceEvent[], ctx: ListingPageContext): string {
  const { t, lang } = ctx;
  const days = daysOnMarket(p);
  const changed = history.some((e) => e.event !== 'listed');
  if (days === null && !changed) return '';
  const rows = history
    .map((e) => `<tr><td>${escapeHtml(formatEventDate(e.at, lang))}</td><td>${escapeHtml(t(`history.${e.event}`))}</td><td>${escapeHtml(formatPrice(e.price))}</td><td>${escapeHtml(formatChange(e.change))}</td></tr>`)
    .join('');
  return `<section class="listing__history"><h2>${escapeHtml(t('history.heading'))}</h2>${
    days !== null ? `<p>${escapeHtml(days === 0 ? t('history.onMarketToday') : t('history.onMarket', { count: days, formatted: formatCount(days) }))}</p>` : ''
  }${
    changed
      ? `<table><thead><tr><th scope="col">${escapeHtml(t('history.date'))}</th><th scope="col">${escapeHtml(t('history.event'))}</th><th scope="col">${escapeHtml(t('history.price'))}</th><th scope="col">${escapeHtml(t('history.change'))}</th></tr></thead><tbody>${rows}</tbody></table>`
      : ''
  }</section>`;
}

/** The page of an active listing. */
export function renderListing(row: Row, similar: { rows: Row[]; like: boolean }, history: PriceEvent[], ctx: ListingPageContext): RenderedListing {
  const { t, lang, origin } = ctx;
  const p = toProperty(row, ctx);
  const route = listingPath(p.id, p.title, 'en');
  const url = new URL(listingPath(p.id, p.title, lang), origin).href;
  const price = formatPrice(p.price);
  const type = typeLabel(p.propertyType, t);
  const place = [p.city, p.state].filter(Boolean).join(', ') || 'Ecuador';
  const facts = listingFacts(p, t);
  const description = t('site.meta.listing.descriptionFor', { type, place, price, facts, excerpt: excerpt(p.description, 110) }).replace(/\s*\.\s*\.\s*$/, '.').trim();
  const crumbs = breadcrumbs(p, ctx);
  const photo = p.images[0];
  const share = shareLinks({ url, title: p.title, text: [price, p.city].filter(Boolean).join(' · ') });
  const factRows: Array<[string, string]> = [
    [t('listing.bedrooms'), formatCount(p.bedrooms)],
    [t('listing.bathrooms'), formatCount(p.bathrooms)],
    [t('listing.area'), formatArea(p.area)],
    [t('listing.type'), type],
  ];
  const body = `${crumbs.html}
      <exp-property-detail${attrs({ 'listing-id': p.id, 'show-similar': 'false' })}>
        <script type="application/json" data-exp-listing>${jsonLdText(row)}</script>
        <article class="listing">
          <div class="listing__bar">
            <span class="listing__price">${escapeHtml(price)}</span>
            <span class="listing__share">${escapeHtml(t('site.listing.share'))}: <a href="${escapeHtml(share.whatsapp)}" target="_blank" rel="noopener noreferrer">${escapeHtml(t('share.whatsapp'))}</a> · <a href="${escapeHtml(share.email)}">${escapeHtml(t('share.email'))}</a></span>
          </div>
          <div class="listing__photo">${photo ? photoHtml(photo, PHOTO_SIZES.detail, { alt: t('site.listing.photoAlt', { title: p.title }), width: 712, height: 400, fetchpriority: 'high', decoding: 'async' }) : ''}</div>
          <div class="listing__grid">
            <div class="listing__main">
              <h1>${escapeHtml(p.title)}</h1>
              ${p.address || p.city ? `<p class="listing__address">${escapeHtml([p.address, p.city, p.state].filter(Boolean).join(', '))}</p>` : ''}
              <dl class="listing__facts">${factRows.map(([k, v]) => `<div><dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>
              ${p.description ? `<section><h2>${escapeHtml(t('listing.description'))}</h2><p class="listing__description">${escapeHtml(p.description)}</p></section>` : ''}
              ${historySection(p, history, ctx)}
              <section class="listing__location"><h2>${escapeHtml(t('location.heading'))}</h2><p>${escapeHtml(p.approximate ? t('location.approximateNote') : [p.address, p.city].filter(Boolean).join(', '))} <a${attrs({ href: directionsUrl(p), target: '_blank', rel: 'noopener noreferrer' })}>${escapeHtml(t('location.directions'))}</a></p></section>
            </div>
            ${agentBlock(p, ctx)}
          </div>
        </article>
      </exp-property-detail>
      ${similarSection(similar.rows.map((r) => toProperty(r, ctx)), p.city, ctx, similar.like)}`;
  const fullTitle = t('detail.documentTitle', { title: p.title, price });
  return {
    head: {
      route,
      title: fitTitle(p.title, (title) => t('detail.documentTitle', { title, price })),
      socialTitle: fullTitle,
      description,
      ogType: 'website',
      image: { url: ctx.imageUrl(p), width: 1200, height: 630, alt: t('site.listing.photoAlt', { title: p.title }) },
      jsonLd: [{ '@context': 'https://schema.org', ...listingJsonLd(p, url) }, crumbs.jsonLd],
    },
    body,
  };
}

/** The page of a listing that is gone (410) or never was (404): what happened, and active ones. */
export function renderMissingListing(kind: 'gone' | 'notFound', similar: Row[], ctx: ListingPageContext): RenderedListing {
  const { t } = ctx;
  const body = `<section class="missing" aria-labelledby="missing-heading">
        <h1 id="missing-heading">${escapeHtml(t(`site.listing.${kind}.title`))}</h1>
        <p>${escapeHtml(t(`site.listing.${kind}.text`))}</p>
      </section>
      ${similarSection(similar.map((r) => toProperty(r, ctx)), '', ctx)}`;
  return { head: { title: t(kind === 'gone' ? 'site.meta.gone.title' : 'site.meta.listing.title'), description: t(`site.listing.${kind}.title`), robots: 'noindex' }, body };
}
