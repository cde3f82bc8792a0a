/**
 * New developments' pages (docs/projects.md): /projects lists them, /projects/{slug} is one, in both
 * languages, readable without JavaScript. A project's page: its photos, stage, progress and delivery,
 * the table of its unit types, its price per m² beside its sector's resale median (the market
 * index), the payment plan of the unit a visitor picks (a form that works without a script: the
 * server computes it, core/protocol/payment-plan.ts), its amenities, developer and place, and
 * "ask about this project" to its agent; JSON-LD (a residence with its offers' price range).
 */
import type { Translate } from '../../core/translate.ts';
import type { Lang } from '../../core/lang.ts';
import { SITE } from '../../core/site.ts';
import { formatArea, formatCount, formatNumber, formatPrice } from '../../core/protocol/format.ts';
import { directionsUrl } from '../../core/protocol/listing.ts';
import { type MarketFigure } from '../../core/protocol/market.ts';
import { formatMonth } from '../../core/protocol/month.ts';
import {
  deliveryMonth,
  projectLine,
  unitTypeCells,
  type ListedUnit,
  type Project,
  type UnitType,
} from '../../core/protocol/projects.ts';
import { listingPath, localizedPath, marketPath, projectPath } from '../../core/routes.ts';
import type { HeadInfo } from './head.tsx';
import { excerpt, Photo, renderBody } from './html.tsx';
import { Plan, type PlanChoice } from './project-plan.tsx';
import { Nearby } from './nearby.tsx';
import type { NearbyPlace } from '../../core/protocol/nearby.ts';

export interface ProjectPageContext {
  lang: Lang;
  t: Translate;
  origin: string;
  /** the month whose cuotas start after it (the site's clock: core/clock.ts) */
  now: Date;
}

const placeName = (p: Project) => (p.sector ? `${p.sector}, ${p.city}` : p.city);

function Stage({ project: p, t, lang }: { project: Project; t: Translate; lang: Lang }) {
  const month = deliveryMonth(p, lang);
  return (
    <p className="project__stage">
      <span className={`project__badge project__badge--${p.stage}`}>{t(`projects.stage.${p.stage}`)}</span>
      {p.stage === 'under_construction' && p.progress !== null ? (
        <span className="project__progress">
          <progress max={100} value={p.progress} aria-label={t('projects.progress', { percent: p.progress })} />{' '}
          {t('projects.progress', { percent: p.progress })}
        </span>
      ) : null}
      {month ? (
        <span>{t(p.stage === 'delivered' ? 'projects.deliveredOn' : 'projects.deliveryOn', { month })}</span>
      ) : null}
    </p>
  );
}

function UnitTable({ units, t }: { units: UnitType[]; t: Translate }) {
  return (
    <div className="market__scroll">
      <table className="market__table project__units">
        <thead>
          <tr>
            <th scope="col">{t('projects.units.type')}</th>
            <th scope="col">{t('projects.units.baths')}</th>
            <th scope="col">{t('projects.units.area')}</th>
            <th scope="col">{t('projects.units.price')}</th>
            <th scope="col">{t('projects.units.available')}</th>
          </tr>
        </thead>
        <tbody>
          {units.map((u) => {
            const cells = unitTypeCells(u, t);
            return (
              <tr key={u.id} data-unit={u.id}>
                <th scope="row">
                  {cells.name}
                  {/* its floor plans, each to its full size */}
                  {u.floorPlans.length ? (
                    <span className="project__plans">
                      {u.floorPlans.map((src, i) => (
                        <a key={src} href={src} data-floor-plan="">
                          <Photo
                            src={src}
                            sizes="96px"
                            alt={t('projects.units.plan', { type: cells.name, n: i + 1, count: u.floorPlans.length })}
                            width={96}
                            height={72}
                            loading="lazy"
                          />
                        </a>
                      ))}
                    </span>
                  ) : null}
                </th>
                {/* on a phone each row is a block, and each figure shows its column's name (site/written.css) */}
                <td data-label={t('projects.units.baths')}>
                  {u.bathrooms === null ? '–' : formatNumber(u.bathrooms, u.bathrooms % 1 ? 1 : 0)}
                </td>
                <td data-label={t('projects.units.area')}>{cells.area}</td>
                <td data-label={t('projects.units.price')}>{cells.price}</td>
                <td data-label={t('projects.units.available')}>
                  {u.available > 0 ? formatCount(u.available) : t('projects.units.soldOut')}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The project's units for sale as listings of their own, each to its page (docs/projects.md "Its units"). */
function Listed({ listed, ctx }: { listed: ListedUnit[]; ctx: ProjectPageContext }) {
  const { t, lang } = ctx;
  if (!listed.length) return null;
  return (
    <>
      <h3 className="project__listed-heading">
        {t('projects.listed.heading', { count: listed.length, formatted: formatCount(listed.length) })}
      </h3>
      <p>{t('projects.listed.note')}</p>
      <ul className="project__listed">
        {listed.map((l) => (
          <li key={l.id}>
            <a data-unit-listing={l.id} href={listingPath(l.id, l.title, lang)}>
              {l.title}
            </a>
            {[l.area ? formatArea(l.area) : null, formatPrice(l.price)].filter(Boolean).map((x) => ` · ${x}`)}
          </li>
        ))}
      </ul>
    </>
  );
}

function Market({
  project: p,
  market,
  t,
  lang,
}: {
  project: Project;
  market: MarketFigure | undefined;
  t: Translate;
  lang: Lang;
}) {
  const perM2 = p.areaFrom > 0 ? Math.round(p.priceFrom / p.areaFrom) : null;
  // the place whose figure it is: the sector's, or its city's when the index has none of the sector
  const place = market?.name || p.sector || p.city;
  return (
    <section className="market__section" aria-labelledby="market-heading">
      <h2 id="market-heading">{t('projects.market.heading')}</h2>
      <ul className="market__facts">
        {perM2 ? <li data-project-m2="">{t('projects.market.project', { price: formatPrice(perM2) })}</li> : null}
        <li data-sector-m2="">
          {market
            ? t('projects.market.sector', {
                place,
                price: formatPrice(market.median),
                month: formatMonth(market.month, t),
              })
            : t('projects.market.none', { place })}
        </li>
      </ul>
      {market ? <a href={marketPath(market.path, lang)}>{t('projects.market.link', { place })}</a> : null}
    </section>
  );
}

/** A project's page; `market` is its sector's (or city's) figure of last month, if the index has one. */
export function renderProject(
  p: Project,
  units: UnitType[],
  market: MarketFigure | undefined,
  choice: PlanChoice,
  ctx: ProjectPageContext,
  { listed = [], nearby = [] }: { listed?: ListedUnit[]; nearby?: NearbyPlace[] } = {},
): { head: HeadInfo; body: string } {
  const { t, lang, origin } = ctx;
  const url = new URL(projectPath(p.slug, lang), origin).href;
  const description = p.description[lang] || p.description.en || p.description.es;
  const line = projectLine(p, t);
  const { body, hoisted } = renderBody(
    <article className="project">
      <nav className="crumbs" aria-label={t('site.listing.breadcrumb')}>
        <ol>
          <li>
            <a href={projectPath(null, lang)}>{t('projects.crumbs')}</a>
          </li>
          <li aria-current="page">{p.name}</li>
        </ol>
      </nav>
      <h1>{p.name}</h1>
      <p className="market__lead">
        {placeName(p)}
        {p.developer ? ` · ${t('projects.by', { developer: p.developer })}` : ''}
      </p>
      <p className="market__headline" data-project-line="">
        {line}
      </p>
      <Stage project={p} t={t} lang={lang} />
      {p.images.length ? (
        // on a phone a row to swipe through (site/written.css), which the keyboard scrolls too
        <ul className="project__gallery" tabIndex={0} aria-label={t('carousel.label', { title: p.name })}>
          {p.images.map((src, i) => (
            <li key={src}>
              <Photo
                src={src}
                sizes="(max-width: 700px) 100vw, 50vw"
                alt={`${p.name} (${i + 1}/${p.images.length})`}
                loading={i ? 'lazy' : 'eager'}
                width={800}
                height={450}
              />
            </li>
          ))}
        </ul>
      ) : null}
      <section className="market__section" aria-labelledby="units-heading">
        <h2 id="units-heading">{t('projects.units.heading')}</h2>
        <p>{t('projects.unitsLeft', { count: p.unitsAvailable, formatted: formatCount(p.unitsAvailable) })}</p>
        <UnitTable units={units} t={t} />
        <Listed listed={listed} ctx={ctx} />
      </section>
      <Plan project={p} units={units} choice={choice} ctx={ctx} />
      <Market project={p} market={market} t={t} lang={lang} />
      {p.amenities.length ? (
        <section className="market__section" aria-labelledby="amenities-heading">
          <h2 id="amenities-heading">{t('projects.amenitiesHeading')}</h2>
          <ul className="project__amenities">
            {p.amenities.map((a) => (
              <li key={a}>{t(`projects.amenities.${a}`)}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {description ? (
        <section className="market__section" aria-labelledby="about-heading">
          <h2 id="about-heading">{t('projects.about')}</h2>
          <p>{description}</p>
          {p.developer ? (
            <p>
              {t('projects.developer')}: {p.developer}
            </p>
          ) : null}
        </section>
      ) : null}
      <section className="market__section" aria-labelledby="location-heading">
        <h2 id="location-heading">{t('projects.location')}</h2>
        <p>{[p.address, placeName(p), 'Ecuador'].filter(Boolean).join(', ')}</p>
        {p.lat !== null && p.lng !== null ? (
          <a
            href={directionsUrl({
              lat: p.lat,
              lng: p.lng,
              approximate: false,
              address: p.address ?? '',
              city: p.city,
              state: '',
            })}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('projects.directions')}
          </a>
        ) : null}
        <Nearby places={nearby} t={t} />
      </section>
      {/* about its listing: the inquiry and a visit to the show flat name the project and reach its agent (docs/projects.md "Leads") */}
      <section className="market__section">
        {p.listingId ? (
          <exp-inquiry-form
            listing-id={p.listingId}
            heading={t('projects.ask', { name: p.name })}
            visit="true"
            visit-heading={t('projects.visit')}
          />
        ) : (
          <exp-inquiry-form
            heading={t('projects.ask', { name: p.name })}
            {...(p.agentId ? { 'agent-id': p.agentId } : {})}
          />
        )}
      </section>
      {/* (set apart from the form's last line, as its sections are from each other) */}
      <p className="market__section">
        <a href={projectPath(null, lang)}>{t('projects.all')}</a>
      </p>
    </article>,
  );
  const residence = {
    '@context': 'https://schema.org',
    '@type': 'ApartmentComplex',
    name: p.name,
    description: excerpt(description, 300),
    url,
    ...(p.images[0] ? { image: p.images.map((src) => new URL(src, origin).href) } : {}),
    address: {
      '@type': 'PostalAddress',
      streetAddress: p.address ?? undefined,
      addressLocality: p.city,
      addressRegion: p.sector ?? undefined,
      addressCountry: 'EC',
    },
    ...(p.lat !== null && p.lng !== null
      ? { geo: { '@type': 'GeoCoordinates', latitude: p.lat, longitude: p.lng } }
      : {}),
    amenityFeature: p.amenities.map((a) => ({
      '@type': 'LocationFeatureSpecification',
      name: t(`projects.amenities.${a}`),
      value: true,
    })),
    containsPlace: units.map((u) => ({
      '@type': u.type === 'house' ? 'SingleFamilyResidence' : 'Apartment',
      name: unitTypeCells(u, t).name,
      numberOfBedrooms: u.bedrooms,
      floorSize: { '@type': 'QuantitativeValue', minValue: u.areaMin, maxValue: u.areaMax, unitCode: 'MTK' },
    })),
  };
  const offers = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    url,
    offers: {
      '@type': 'AggregateOffer',
      priceCurrency: 'USD',
      lowPrice: p.priceFrom,
      highPrice: p.priceTo,
      offerCount: p.unitsAvailable,
      availability: p.unitsAvailable > 0 ? 'https://schema.org/InStock' : 'https://schema.org/SoldOut',
    },
  };
  const place = placeName(p);
  return {
    head: {
      route: projectPath(p.slug),
      title: t('site.meta.projects.titleOne', {
        name: p.name,
        place: p.sector ?? p.city,
        price: formatPrice(p.priceFrom),
      }),
      description: t('site.meta.projects.descriptionOne', {
        name: p.name,
        place,
        developer: p.developer ?? SITE.name,
        // its stage, where its line does not already end with it ("Delivered")
        line: p.stage === 'delivered' ? line : `${line}. ${t(`projects.stage.${p.stage}`)}`,
      }),
      ogType: 'website',
      jsonLd: [residence, offers],
      hoisted,
    },
    body,
  };
}

/** /projects: every active project as a card, delivery first. */
export function renderProjects(projects: Project[], ctx: ProjectPageContext): { head: HeadInfo; body: string } {
  const { t, lang, origin } = ctx;
  const { body, hoisted } = renderBody(
    <section className="projects">
      <h1>{t('projects.listTitle')}</h1>
      <p className="market__lead">{t('projects.listLead')}</p>
      <p data-project-count="">
        {t('projects.count', { count: projects.length, formatted: formatCount(projects.length) })}
      </p>
      {projects.length ? (
        <ul className="projects__list">
          {projects.map((p) => (
            <li key={p.id} className="projects__card" data-project={p.slug}>
              {p.images[0] ? (
                <Photo
                  src={p.images[0]}
                  sizes="(max-width: 700px) 100vw, 33vw"
                  alt=""
                  loading="lazy"
                  width={800}
                  height={450}
                />
              ) : null}
              <h2>
                <a href={projectPath(p.slug, lang)}>{p.name}</a>
              </h2>
              <p>{placeName(p)}</p>
              <p>{projectLine(p, t)}</p>
              <p>
                <span className={`project__badge project__badge--${p.stage}`}>{t(`projects.stage.${p.stage}`)}</span>
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('projects.empty')}</p>
      )}
    </section>,
  );
  const list = {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name: t('projects.listTitle'),
    url: new URL(localizedPath('/projects', lang), origin).href,
    itemListElement: projects.map((p, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      url: new URL(projectPath(p.slug, lang), origin).href,
      name: p.name,
    })),
  };
  return {
    head: {
      route: '/projects',
      title: t('site.meta.projects.title'),
      description: t('site.meta.projects.description'),
      ogType: 'website',
      jsonLd: [list],
      hoisted,
    },
    body,
  };
}
