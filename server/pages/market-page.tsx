/**
 * A place's market report (docs/market.md): /market for Ecuador, /market/provincia/pichincha,
 * /market/quito, /market/quito/cumbaya, in both languages. The headline median asking price per
 * m² and its change over a year, 24 months as a chart (SVG, with its table), the figure by type,
 * what a typical flat costs, last month's activity, the places within ranked with their trend
 * lines, and the way to the place's search; JSON-LD Dataset. A place the index has no figure of
 * its own for is a 404.
 */
import type { Translate } from '../../core/translate.ts';
import type { Lang } from '../../core/lang.ts';
import { formatCount, formatPrice } from '../../core/protocol/format.ts';
import { formatChange, formatMonth, lastFullMonth, placeKind, typicalPrice, yearChange, type MarketFigure, type MarketRank, type TypeGroup } from '../../core/protocol/market.ts';
import { localizedPath, marketPath } from '../../core/routes.ts';
import { MarketChart, Sparkline } from '../../core/view/market-chart.tsx';
import { CityMap } from '../../core/view/market-map.tsx';
import type { HeadInfo } from './head.tsx';
import { renderBody } from './html.tsx';

export interface MarketData {
  /** the place's index, 25 months, all types */
  all: MarketFigure[];
  /** the place's index by type group, 14 months each (last month and the same month a year before) */
  byType: Array<[Exclude<TypeGroup, 'all'>, MarketFigure[]]>;
  /** the places within, ranked (a sector: the other sectors of its city) */
  ranking: MarketRank[];
  /** Ecuador's report also ranks every city, and shows them on a map of this outline */
  cities?: MarketRank[];
  outline?: Array<Array<[number, number]>>;
}

export interface MarketPageContext {
  lang: Lang;
  t: Translate;
  origin: string;
  now: Date;
}

/** The search of a place: the place filter by its path (Ecuador: the whole search). */
export function placeSearch(place: string, lang: Lang): string {
  const search = localizedPath('/search-properties', lang);
  return place === 'ecuador' ? search : `${search}?place=${encodeURIComponent(place)}`;
}

function Change({ change, t }: { change: number | null; t: Translate }) {
  if (change === null) return <span className="market__change">{t('site.market.changeUnknown')}</span>;
  return <span className={`market__change ${change > 0 ? 'market__change--up' : change < 0 ? 'market__change--down' : ''}`}>{t('site.market.change', { change: formatChange(change) })}</span>;
}

function Ranking({ heading, rows, ctx, current }: { heading: string; rows: MarketRank[]; ctx: MarketPageContext; current?: string }) {
  const { t, lang } = ctx;
  if (!rows.length) return null;
  return (
    <section className="market__section" aria-labelledby={`ranking-${heading.length}-${rows.length}`}>
      <h2 id={`ranking-${heading.length}-${rows.length}`}>{heading}</h2>
      <div className="market__scroll">
        <table className="market__table">
          <thead>
            <tr>
              <th scope="col">{t('site.market.ranking.place')}</th>
              <th scope="col">{t('site.market.ranking.median')}</th>
              <th scope="col">{t('site.market.ranking.change')}</th>
              <th scope="col">{t('site.market.ranking.trend')}</th>
              <th scope="col">{t('site.market.ranking.listings')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const known = r.trend.filter((v): v is number => v !== null);
              return (
                <tr key={r.path} aria-current={r.path === current ? 'true' : undefined}>
                  <th scope="row">
                    <a href={marketPath(r.path, lang)}>{r.name}</a>
                  </th>
                  <td>{t('site.market.perM2', { price: formatPrice(r.median) })}</td>
                  <td>{r.yearBefore ? formatChange(r.median / r.yearBefore - 1) : '–'}</td>
                  <td>
                    <Sparkline
                      values={r.trend}
                      className="market__spark"
                      label={known.length >= 2 ? t('site.market.ranking.trendOf', { place: r.name, first: formatPrice(known[0]), last: formatPrice(known[known.length - 1]) }) : r.name}
                    />
                  </td>
                  <td>{formatCount(r.listings)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The place's parents for the way back: Ecuador, then its province and city where the index names them. */
function crumbsOf(place: string, figures: MarketFigure[], ranking: MarketRank[]): Array<[string, string]> {
  const items: Array<[string, string]> = [];
  if (place === 'ecuador') return items;
  items.push(['Ecuador', 'ecuador']);
  if (placeKind(place) === 'sector') {
    const city = place.split('/')[0] as string;
    const name = figures.find((f) => f.path === city)?.name ?? ranking.find((r) => r.path === city)?.name ?? city;
    items.push([name, city]);
  }
  return items;
}

export function renderMarket(place: string, data: MarketData, ctx: MarketPageContext): { status: number; head: HeadInfo; body: string } {
  const { t, lang, origin, now } = ctx;
  const last = lastFullMonth(data.all, now);
  // a place has a report when last month's figure is its own
  if (!last || last.path !== place) return { status: 404, head: { robots: 'noindex', title: t('site.meta.market.title') }, body: '' };
  const name = last.name;
  const change = yearChange(data.all, last);
  const month = formatMonth(last.month, lang);
  const url = new URL(marketPath(place, lang), origin).href;
  const chartFigures = data.all.filter((f) => f.month <= last.month);
  const apartments = data.byType.find(([g]) => g === 'apartment')?.[1];
  const flat = apartments ? lastFullMonth(apartments, now) : undefined;
  const kind = placeKind(place);
  const crumbs = crumbsOf(place, data.all, data.ranking);
  // a sector's ranking is its city's sectors
  const rankingHeading =
    kind === 'country'
      ? t('site.market.ranking.country')
      : kind === 'province'
        ? t('site.market.ranking.province', { place: name })
        : t('site.market.ranking.city', { place: kind === 'sector' ? (crumbs[1]?.[0] ?? name) : name });
  const { body, hoisted } = renderBody(
    <>
      <nav className="crumbs" aria-label={t('site.listing.breadcrumb')}>
        <ol>
          <li>{place === 'ecuador' ? <span>{t('site.market.crumbs')}</span> : <a href={marketPath('ecuador', lang)}>{t('site.market.crumbs')}</a>}</li>
          {crumbs.slice(1).map(([n, p]) => (
            <li key={p}>
              <a href={marketPath(p, lang)}>{n}</a>
            </li>
          ))}
          {place !== 'ecuador' ? <li aria-current="page">{name}</li> : null}
        </ol>
      </nav>
      <article className="market" aria-labelledby="market-heading">
        <h1 id="market-heading">{place === 'ecuador' ? t('site.market.heading') : t('site.market.headingPlace', { place: name })}</h1>
        <p className="market__lead">{t('site.market.lead')}</p>
        <section className="market__headline" aria-label={t('site.market.headline', { month })}>
          <p className="market__label">{t('site.market.headline', { month })}</p>
          <p className="market__figure" data-card-figure="">
            {t('site.market.perM2', { price: formatPrice(last.median) })}
          </p>
          <p className="market__meta">
            <Change change={change} t={t} /> · {t('site.market.standsOn', { count: last.listings, formatted: formatCount(last.listings) })}
          </p>
        </section>
        <section className="market__section" aria-labelledby="market-chart-heading">
          <h2 id="market-chart-heading">{t('site.market.chart.title')}</h2>
          <MarketChart
            figures={chartFigures}
            t={t}
            lang={lang}
            id="market-chart"
            classes={{
              figure: 'market__chart',
              svg: 'market__svg',
              band: 'market__band',
              line: 'market__line',
              grid: 'market__grid',
              label: 'market__axis',
              table: 'market__table market__data',
              hidden: 'sr-only',
            }}
          />
        </section>
        <section className="market__section" aria-labelledby="market-types-heading">
          <h2 id="market-types-heading">{t('site.market.byType')}</h2>
          <div className="market__scroll">
            <table className="market__table">
              <thead>
                <tr>
                  <th scope="col">{t('site.market.type')}</th>
                  <th scope="col">{t('site.market.ranking.median')}</th>
                  <th scope="col">{t('site.market.ranking.change')}</th>
                  <th scope="col">{t('site.market.ranking.listings')}</th>
                </tr>
              </thead>
              <tbody>
                {data.byType.map(([group, figures]) => {
                  const f = lastFullMonth(figures, now);
                  const own = f && f.path === place;
                  return (
                    <tr key={group}>
                      <th scope="row">{t(`site.market.groups.${group}`)}</th>
                      {own ? (
                        <>
                          <td>{t('site.market.perM2', { price: formatPrice(f.median) })}</td>
                          <td>
                            {(() => {
                              const c = yearChange(figures, f);
                              return c === null ? '–' : formatChange(c);
                            })()}
                          </td>
                          <td>{formatCount(f.listings)}</td>
                        </>
                      ) : (
                        <td colSpan={3}>{t('site.market.noFigure')}</td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </section>
        {flat ? (
          <section className="market__section" aria-labelledby="market-flat-heading">
            <h2 id="market-flat-heading">{t('site.market.typical.heading')}</h2>
            <dl className="market__facts">
              <div>
                <dt>{t('site.market.typical.two')}</dt>
                <dd>{formatPrice(typicalPrice(flat.median, 70))}</dd>
              </div>
              <div>
                <dt>{t('site.market.typical.three')}</dt>
                <dd>{formatPrice(typicalPrice(flat.median, 110))}</dd>
              </div>
            </dl>
            <p className="market__note">
              {t('site.market.typical.note')}
              {flat.path !== place ? ` ${t('site.market.fromParent', { place: name, parent: flat.name })}` : ''}
            </p>
          </section>
        ) : null}
        <section className="market__section" aria-labelledby="market-activity-heading">
          <h2 id="market-activity-heading">{t('site.market.activity.heading', { month })}</h2>
          <dl className="market__facts">
            <div>
              <dt>{t('site.market.activity.newListings')}</dt>
              <dd>{formatCount(last.newListings)}</dd>
            </div>
            <div>
              <dt>{t('site.market.activity.priceCuts')}</dt>
              <dd>{formatChange(last.listings ? last.priceCuts / last.listings : 0).replace(/^\+/, '')}</dd>
            </div>
            <div>
              <dt>{t('site.market.activity.medianDays')}</dt>
              <dd>{formatCount(last.medianDays)}</dd>
            </div>
          </dl>
        </section>
        <Ranking heading={rankingHeading} rows={data.ranking} ctx={ctx} current={place} />
        {data.cities ? (
          <>
            {data.outline?.length ? (
              <section className="market__section" aria-labelledby="market-map-heading">
                <h2 id="market-map-heading">{t('site.market.map.title')}</h2>
                <CityMap cities={data.cities} outline={data.outline} t={t} id="market-map" className="market-map" />
              </section>
            ) : null}
            <Ranking heading={t('site.market.ranking.countryCities')} rows={data.cities} ctx={ctx} />
          </>
        ) : null}
        <p>
          <a className="btn btn--primary" href={placeSearch(place, lang)}>
            {t('site.market.search', { place: name })}
          </a>
        </p>
        <p className="market__note">{t('site.market.method')}</p>
      </article>
    </>,
  );
  const first = chartFigures[0] as MarketFigure;
  const dataset = {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: t('site.market.dataset', { place: name }),
    description: t('site.market.lead'),
    url,
    isAccessibleForFree: true,
    temporalCoverage: `${first.month.slice(0, 7)}/${last.month.slice(0, 7)}`,
    spatialCoverage: { '@type': 'Place', name: place === 'ecuador' ? 'Ecuador' : `${name}, Ecuador` },
    variableMeasured: t('site.market.headline', { month }),
    creator: { '@type': 'Organization', name: 'eXp Realty Ecuador', url: new URL(localizedPath('/', lang), origin).href },
  };
  const breadcrumbs = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [[t('site.market.crumbs'), 'ecuador'], ...crumbs.slice(1), ...(place === 'ecuador' ? [] : [[name, place]])].map(([n, p], i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: n,
      item: new URL(marketPath(p as string, lang), origin).href,
    })),
  };
  const price = t('site.market.perM2', { price: formatPrice(last.median) });
  return {
    status: 200,
    head: {
      route: marketPath(place),
      title: place === 'ecuador' ? t('site.meta.market.title') : t('site.meta.market.titlePlace', { place: name, price }),
      description: t('site.meta.market.descriptionPlace', {
        place: name,
        price,
        month,
        count: formatCount(last.listings),
        change: change === null ? '' : `, ${t('site.market.change', { change: formatChange(change) })}`,
      }),
      ogType: 'website',
      jsonLd: [dataset, breadcrumbs],
      hoisted,
    },
    body,
  };
}
