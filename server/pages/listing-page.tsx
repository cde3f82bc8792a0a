/**
 * A listing's own page (docs/decisions.md #12, #18): the listing in the HTML, readable without
 * JavaScript (a crawler, a link preview, a slow phone), then enhanced by <exp-property-detail>,
 * which takes the same row from the page and draws the detail the search's dialog shows (the facts
 * and the price history are the same components: core/view/). A listing that is gone, or never
 * was, gets a real 410 or 404 page with similar active listings.
 */
import type { Translate } from '../../core/translate.ts';
import { formatArea, whatsappHref } from '../../core/protocol/format.ts';
import {
  daysOnMarket,
  directionsUrl,
  LISTING_ANSWER_MARK,
  listingDefaults,
  listingPrice,
  mapListing,
  monthUnit,
  roomTexts,
  type Property,
  typeLabel,
} from '../../core/protocol/listing.ts';
import type { PriceEvent } from '../../core/protocol/price-history.ts';
import { agentPath, listingPath, localizedPath, marketPath, projectPath } from '../../core/routes.ts';
import { UnitOfProject } from '../../core/view/unit-of-project.tsx';
import { shareLinks } from '../../core/protocol/share.ts';
import { listingJsonLd } from '../../core/protocol/structured-data.ts';
import { openHouseCalendarPath, openHouseJsonLd, type OpenHouse } from '../../core/protocol/open-house-details.ts';
import { OpenHousesView } from '../../core/view/open-houses.tsx';
import { PHOTO_SIZES } from '../../core/protocol/photos.ts';
import { ListingFacts } from '../../core/view/listing-facts.tsx';
import { PriceHistoryView } from '../../core/view/price-history.tsx';
import { MarketComparison } from '../../core/view/market-compare.tsx';
import type { NearbyPlace } from '../../core/protocol/nearby.ts';
import { ListingTile } from './listing-tile.tsx';
import { Nearby } from './nearby.tsx';
import type { MarketFigure } from '../../core/protocol/market.ts';
import type { HeadInfo } from './head.tsx';
import { ContactItems, excerpt, fitTitle, PageAnswer, Photo, renderBody } from './html.tsx';
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

/** Bedrooms, bathrooms and area in one line, for the page's description. */
function factsLine(p: Property, t: Translate): string {
  const parts = roomTexts(p, t).map((r) => r.text);
  if (p.area > 0) parts.push(formatArea(p.area));
  return parts.join(', ');
}

export function toProperty(row: Row, ctx: Pick<ListingPageContext, 't' | 'mediaBase'>): Property {
  return mapListing(row, ctx.mediaBase, listingDefaults(ctx.t));
}

/** The listings most like this one (`like`), else more of its city, as links crawlers follow. */
function Similar({
  similar,
  city,
  ctx,
  like = false,
}: {
  similar: Property[];
  city: string;
  ctx: ListingPageContext;
  like?: boolean;
}) {
  if (!similar.length) return null;
  const { t, lang } = ctx;
  const search = localizedPath('/search-properties', lang) + (city ? `?city=${encodeURIComponent(city)}` : '');
  return (
    <section className="similar" aria-labelledby="similar-heading">
      <h2 id="similar-heading">{city && !like ? t('site.listing.similarIn', { city }) : t('site.listing.similar')}</h2>
      <ul className="listing-tiles">
        {similar.map((p) => (
          <ListingTile key={p.id} p={p} t={t} lang={lang} />
        ))}
      </ul>
      <p>
        <a className="btn btn--outline" href={search}>
          {t('site.listing.viewAll')}
        </a>
      </p>
    </section>
  );
}

/** The way back to the search, and its structured twin. */
function breadcrumbItems(p: Property, ctx: ListingPageContext): Array<[string, string]> {
  const { t, lang } = ctx;
  const search = localizedPath('/search-properties', lang);
  const items: Array<[string, string]> = [[t('site.listing.search'), search]];
  if (p.city)
    items.push([t('site.listing.searchIn', { city: p.city }), `${search}?city=${encodeURIComponent(p.city)}`]);
  return items;
}

function Breadcrumbs({ items, title, label }: { items: Array<[string, string]>; title: string; label: string }) {
  return (
    <nav className="crumbs" aria-label={label}>
      <ol>
        {items.map(([name, href]) => (
          <li key={href}>
            <a href={href}>{name}</a>
          </li>
        ))}
        <li aria-current="page">{title}</li>
      </ol>
    </nav>
  );
}

function AgentBlock({ p, ctx }: { p: Property; ctx: ListingPageContext }) {
  const a = p.agent;
  if (!a) return null;
  const { t, lang } = ctx;
  const whatsapp = whatsappHref(a.phone);
  const profile = a.id ? agentPath(a.id, lang) : '';
  return (
    <aside className="listing__agent" aria-labelledby="agent-heading">
      <h2 id="agent-heading">{t('site.listing.agent')}</h2>
      <p className="listing__agent-name">
        {a.photo ? <img src={a.photo} alt="" width={56} height={56} loading="lazy" /> : null}
        {profile ? <a href={profile}>{a.name}</a> : a.name}
      </p>
      <ul>
        <ContactItems email={a.email} phone={a.phone} />
        {whatsapp ? (
          <li>
            <a href={whatsapp} rel="noopener noreferrer" target="_blank">
              {t('site.listing.whatsapp')}
            </a>
          </li>
        ) : null}
      </ul>
    </aside>
  );
}

export interface RenderedListing {
  head: HeadInfo;
  body: string;
}

/** The page of an active listing: its row (embedded for the element) and the property made of it once (toProperty). */
export function renderListing(
  { row, property: p }: { row: Row; property: Property },
  similar: { rows: Row[]; like: boolean },
  history: PriceEvent[],
  ctx: ListingPageContext,
  market?: MarketFigure,
  openHouses: OpenHouse[] = [],
  nearby: NearbyPlace[] = [],
): RenderedListing {
  const { t, lang, origin } = ctx;
  const route = listingPath(p.id, p.title, 'en');
  const url = new URL(listingPath(p.id, p.title, lang), origin).href;
  const price = listingPrice(p, t);
  const type = typeLabel(p.propertyType, t);
  const place = [p.city, p.state].filter(Boolean).join(', ') || 'Ecuador';
  const description = t('site.meta.listing.descriptionFor', {
    type,
    place,
    price,
    facts: factsLine(p, t),
    excerpt: excerpt(p.description, 110),
  })
    .replace(/\s*\.\s*\.\s*$/, '.')
    .trim();
  const crumbs = breadcrumbItems(p, ctx);
  const photo = p.images[0];
  const share = shareLinks({ url, title: p.title, text: [price, p.city].filter(Boolean).join(' · ') });
  const { body, hoisted } = renderBody(
    <>
      <Breadcrumbs items={crumbs} title={p.title} label={t('site.listing.breadcrumb')} />
      <exp-property-detail listing-id={p.id} show-similar="false">
        <PageAnswer mark={LISTING_ANSWER_MARK} value={row} />
        <article className="listing">
          <div className="listing__bar">
            <span className="listing__price">{price}</span>
            <span className="listing__share">
              {t('site.listing.share')}:{' '}
              <a href={share.whatsapp} target="_blank" rel="noopener noreferrer">
                {t('share.whatsapp')}
              </a>
              {' · '}
              <a href={share.email}>{t('share.email')}</a>
            </span>
          </div>
          <div className="listing__photo">
            {photo ? (
              <Photo
                src={photo}
                sizes={PHOTO_SIZES.detail}
                alt={t('site.listing.photoAlt', { title: p.title })}
                width={712}
                height={400}
                fetchPriority="high"
                decoding="async"
              />
            ) : null}
          </div>
          <div className="listing__grid">
            <div className="listing__main">
              <h1>{p.title}</h1>
              {p.address || p.city ? (
                <p className="listing__address">{[p.address, p.city, p.state].filter(Boolean).join(', ')}</p>
              ) : null}
              <ListingFacts property={p} t={t} classes={{ list: 'listing__facts' }} />
              <UnitOfProject
                unitOf={p.unitOf}
                t={t}
                lang={lang}
                href={projectPath(p.unitOf?.slug ?? null, lang)}
                className="listing__unit-of"
              />
              <MarketComparison
                listing={p}
                figure={market}
                t={t}
                href={market ? marketPath(market.path, lang) : ''}
                className="listing__market"
              />
              {p.description ? (
                <section>
                  <h2>{t('listing.description')}</h2>
                  <p className="listing__description">{p.description}</p>
                </section>
              ) : null}
              <PriceHistoryView
                days={daysOnMarket(p)}
                events={history}
                t={t}
                lang={lang}
                heading="h2"
                classes={{ section: 'listing__history' }}
              />
              <OpenHousesView
                openHouses={openHouses}
                t={t}
                lang={lang}
                heading="h2"
                calendarHref={(id) => localizedPath(openHouseCalendarPath(p.id, id), lang)}
                classes={{
                  section: 'listing__open-houses',
                  when: 'listing__open-house-when',
                  remarks: 'listing__open-house-remarks',
                  links: 'listing__open-house-links',
                }}
              />
              <section className="listing__location">
                <h2>{t('location.heading')}</h2>
                <p>
                  {p.approximate ? t('location.approximateNote') : [p.address, p.city].filter(Boolean).join(', ')}{' '}
                  <a href={directionsUrl(p)} target="_blank" rel="noopener noreferrer">
                    {t('location.directions')}
                  </a>
                </p>
                <Nearby places={nearby} t={t} />
              </section>
            </div>
            <AgentBlock p={p} ctx={ctx} />
          </div>
        </article>
      </exp-property-detail>
      <Similar similar={similar.rows.map((r) => toProperty(r, ctx))} city={p.city} ctx={ctx} like={similar.like} />
    </>,
  );
  const breadcrumbJsonLd = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [...crumbs, [p.title, listingPath(p.id, p.title, lang)] as [string, string]].map(
      ([name, href], i) => ({
        '@type': 'ListItem',
        position: i + 1,
        name,
        item: new URL(href, origin).href,
      }),
    ),
  };
  return {
    head: {
      route,
      title: fitTitle(
        p.title,
        (title) => t('listing.documentTitle', { title, price }),
        (title) => t('site.listing.documentTitle', { title, price }),
      ),
      socialTitle: t('listing.documentTitle', { title: p.title, price }),
      description,
      ogType: 'website',
      image: { url: ctx.imageUrl(p), width: 1200, height: 630, alt: t('site.listing.photoAlt', { title: p.title }) },
      jsonLd: [
        { '@context': 'https://schema.org', ...listingJsonLd(p, url, monthUnit(t)) },
        breadcrumbJsonLd,
        ...openHouses.map((o) => openHouseJsonLd(p, o, t('openHouse.eventName', { title: p.title }), url)),
      ],
      hoisted,
    },
    body,
  };
}

/** The page of a listing that is gone (410) or never was (404): what happened, and active ones. */
export function renderMissingListing(
  kind: 'gone' | 'notFound',
  similar: Row[],
  ctx: ListingPageContext,
): RenderedListing {
  const { t } = ctx;
  const { body, hoisted } = renderBody(
    <>
      <section className="missing" aria-labelledby="missing-heading">
        <h1 id="missing-heading">{t(`site.listing.${kind}.title`)}</h1>
        <p>{t(`site.listing.${kind}.text`)}</p>
      </section>
      <Similar similar={similar.map((r) => toProperty(r, ctx))} city="" ctx={ctx} />
    </>,
  );
  return {
    head: {
      title: t(kind === 'gone' ? 'site.meta.gone.title' : 'site.meta.listing.title'),
      description: t(`site.listing.${kind}.title`),
      robots: 'noindex',
      hoisted,
    },
    body,
  };
}
