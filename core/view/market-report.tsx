/**
 * A place's market report (docs/market.md), drawn alike by the server's /market pages
 * (server/pages/market-page.tsx, with the site's classes) and by <exp-market-report> (with its
 * utilities), which takes over the server's page and follows the language live: the headline
 * median per m² of last month with its change and count, 24 months as a chart, the figure by
 * type, what a flat costs, last month's activity, the places within ranked with their trend
 * lines, Ecuador's cities on a map, the way to the place's search and how it is counted.
 */
import type { ReactNode } from 'react';
import { formatCount, formatNumber, formatPrice } from '../protocol/format.ts';
import {
  formatChange,
  lastFullMonth,
  placeKind,
  typicalPrice,
  yearChange,
  type MarketFigure,
  type MarketRank,
  type MarketRents,
  type TypeGroup,
} from '../protocol/market.ts';
import { formatMonth } from '../protocol/month.ts';
import type { Translate } from '../translate.ts';
import { MarketChart, Sparkline, type MarketChartClasses } from './market-chart.tsx';
import { CityMap, type CityMapClasses } from './market-map.tsx';

export interface MarketData {
  /** the place's index, all types, the chart's months */
  all: MarketFigure[];
  /** the place's index by type group, last month and the same month a year before at least */
  byType: Array<[Exclude<TypeGroup, 'all'>, MarketFigure[]]>;
  /** the places within, ranked (a sector: the other sectors of its city) */
  ranking: MarketRank[];
  /** Ecuador's report also ranks every city, and shows them on a map of this outline */
  cities?: MarketRank[];
  outline?: Array<Array<[number, number]>>;
  /** the place's rents now, beside the asking prices */
  rents?: MarketRents;
}

export interface MarketReportClasses {
  root?: string;
  heading?: string;
  lead?: string;
  headline?: string;
  label?: string;
  figure?: string;
  meta?: string;
  change?: string;
  up?: string;
  down?: string;
  section?: string;
  subheading?: string;
  scroll?: string;
  table?: string;
  th?: string;
  rowHeading?: string;
  td?: string;
  /** a cell's second line */
  sub?: string;
  facts?: string;
  fact?: string;
  factTerm?: string;
  factValue?: string;
  note?: string;
  link?: string;
  button?: string;
  /** the paragraph of the way to the search and the element's actions */
  actions?: string;
  spark?: string;
  map?: CityMapClasses;
  chart?: MarketChartClasses;
}

export interface MarketReportProps {
  place: string;
  data: MarketData;
  t: Translate;
  now: Date;
  /** the address of a place's report, and of its search */
  reportHref: (place: string) => string;
  searchHref: (place: string) => string;
  /** what the report shows besides the headline and the chart (all by default) */
  show?: {
    title?: boolean;
    byType?: boolean;
    typical?: boolean;
    activity?: boolean;
    ranking?: boolean;
    search?: boolean;
  };
  /** the heading's level: h1 on the report's page, h2 in another page */
  heading: 'h1' | 'h2';
  /** beside the way to the search: what the element adds (its "Follow this market") */
  actions?: ReactNode;
  classes?: MarketReportClasses;
}

/** The heading of a place's ranking: Ecuador's provinces, a province's cities, a city's (or a sector's city's) sectors. */
function rankingHeading(place: string, name: string, cityName: string, t: Translate): string {
  const kind = placeKind(place);
  if (kind === 'country') return t('market.ranking.country');
  if (kind === 'province') return t('market.ranking.province', { place: name });
  return t('market.ranking.city', { place: kind === 'sector' ? cityName : name });
}

export function MarketReportView({
  place,
  data,
  t,
  now,
  reportHref,
  searchHref,
  show = {},
  heading: Heading,
  actions,
  classes: c = {},
}: MarketReportProps) {
  const last = lastFullMonth(data.all, now);
  if (!last) return null;
  const own = last.path === place;
  const name = last.name;
  const change = yearChange(data.all, last);
  const month = formatMonth(last.month, t);
  const chartFigures = data.all.filter((f) => f.month <= last.month);
  const apartments = data.byType.find(([g]) => g === 'apartment')?.[1];
  const flat = apartments ? lastFullMonth(apartments, now) : undefined;
  const cityName =
    placeKind(place) === 'sector'
      ? (data.ranking.find((r) => r.path === place.split('/')[0])?.name ??
        data.all.find((f) => f.path === place.split('/')[0])?.name ??
        name)
      : name;
  const Section = ({ id, title, children }: { id: string; title: string; children: ReactNode }) => (
    <section className={c.section} aria-labelledby={id}>
      <h2 id={id} className={c.subheading}>
        {title}
      </h2>
      {children}
    </section>
  );
  const Ranking = ({ id, title, rows }: { id: string; title: string; rows: MarketRank[] }) =>
    rows.length ? (
      <Section id={id} title={title}>
        <div className={c.scroll}>
          <table className={c.table}>
            <thead>
              <tr>
                {(['place', 'median', 'trend'] as const).map((k) => (
                  <th key={k} scope="col" className={c.th}>
                    {t(`market.ranking.${k}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const known = r.trend.filter((v): v is number => v !== null);
                return (
                  <tr key={r.path} aria-current={r.path === place ? 'true' : undefined}>
                    <th scope="row" className={c.rowHeading}>
                      <a href={reportHref(r.path)} className={c.link}>
                        {r.name}
                      </a>
                      <span className={c.sub}>
                        {t('market.standsOn', { count: r.listings, formatted: formatCount(r.listings) })}
                      </span>
                    </th>
                    <td className={c.td}>
                      {t('market.perM2', { price: formatPrice(r.median) })}
                      <span className={c.sub}>
                        {r.yearBefore
                          ? t('market.change', { change: formatChange(r.median / r.yearBefore - 1) })
                          : t('market.changeUnknownShort')}
                      </span>
                    </td>
                    <td className={c.td}>
                      <Sparkline
                        values={r.trend}
                        className={c.spark}
                        label={
                          known.length >= 2
                            ? t('market.ranking.trendOf', {
                                place: r.name,
                                first: formatPrice(known[0]),
                                last: formatPrice(known[known.length - 1]),
                              })
                            : r.name
                        }
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </Section>
    ) : null;
  const fact = (term: string, value: string) => (
    <div className={c.fact}>
      <dt className={c.factTerm}>{term}</dt>
      <dd className={c.factValue}>{value}</dd>
    </div>
  );
  return (
    <article
      className={c.root}
      aria-labelledby={show.title !== false ? 'market-heading' : undefined}
      aria-label={show.title !== false ? undefined : t('market.headline', { month })}
    >
      {show.title !== false ? (
        <Heading id="market-heading" className={c.heading} part="heading">
          {place === 'ecuador' ? t('market.heading') : t('market.headingPlace', { place: own ? name : place })}
        </Heading>
      ) : null}
      <p className={c.lead}>{t('market.lead')}</p>
      <section className={c.headline} aria-label={t('market.headline', { month })}>
        <p className={c.label}>{t('market.headline', { month })}</p>
        <p className={c.figure} data-card-figure="" part="figure">
          {t('market.perM2', { price: formatPrice(last.median) })}
        </p>
        <p className={c.meta}>
          {change === null ? (
            <span className={c.change}>{t('market.changeUnknown')}</span>
          ) : (
            <span
              className={`${c.change ?? ''} ${change > 0 ? (c.up ?? '') : change < 0 ? (c.down ?? '') : ''}`.trim()}
              part="change"
            >
              {t('market.change', { change: formatChange(change) })}
            </span>
          )}{' '}
          · {t('market.standsOn', { count: last.listings, formatted: formatCount(last.listings) })}
        </p>
        {own ? null : <p className={c.meta}>{t('market.fromParent', { place, parent: name })}</p>}
      </section>
      <Section id="market-chart-heading" title={t('market.chart.title')}>
        <MarketChart figures={chartFigures} place={last.path} t={t} id="market-chart" classes={c.chart ?? {}} />
      </Section>
      {show.byType !== false ? (
        <Section id="market-types-heading" title={t('market.byType')}>
          <div className={c.scroll}>
            <table className={c.table}>
              <thead>
                <tr>
                  {(['type', 'ranking.median'] as const).map((k) => (
                    <th key={k} scope="col" className={c.th}>
                      {t(`market.${k}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.byType.map(([group, figures]) => {
                  const f = lastFullMonth(figures, now);
                  const yearly = f && f.path === last.path ? yearChange(figures, f) : null;
                  return (
                    <tr key={group}>
                      <th scope="row" className={c.rowHeading}>
                        {t(`market.groups.${group}`)}
                        {f && f.path === last.path ? (
                          <span className={c.sub}>
                            {t('market.standsOn', { count: f.listings, formatted: formatCount(f.listings) })}
                          </span>
                        ) : null}
                      </th>
                      {f && f.path === last.path ? (
                        <td className={c.td}>
                          {t('market.perM2', { price: formatPrice(f.median) })}
                          <span className={c.sub}>
                            {yearly === null
                              ? t('market.changeUnknownShort')
                              : t('market.change', { change: formatChange(yearly) })}
                          </span>
                        </td>
                      ) : (
                        <td className={c.td}>{t('market.noFigure')}</td>
                      )}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </Section>
      ) : null}
      {show.typical !== false && flat ? (
        <Section id="market-flat-heading" title={t('market.typical.heading')}>
          <dl className={c.facts}>
            {fact(t('market.typical.two'), formatPrice(typicalPrice(flat.median, 70)))}
            {fact(t('market.typical.three'), formatPrice(typicalPrice(flat.median, 110)))}
          </dl>
          <p className={c.note}>
            {t('market.typical.note')}
            {flat.path !== last.path ? ` ${t('market.fromParent', { place: name, parent: flat.name })}` : ''}
          </p>
        </Section>
      ) : null}
      {show.typical !== false && data.rents ? (
        <Section id="market-rents-heading" title={t('market.rents.heading')}>
          <dl className={c.facts}>
            {fact(
              t('market.rents.perM2'),
              t('market.rents.perMonth', { price: `$${formatNumber(data.rents.median, 2)}` }),
            )}
            {data.rents.twoBedroom !== null
              ? fact(t('market.rents.two'), t('market.rents.perMonth', { price: formatPrice(data.rents.twoBedroom) }))
              : null}
            {fact(t('market.rents.listings'), formatCount(data.rents.listings))}
          </dl>
          <p className={c.note}>
            {t('market.rents.note')}
            {data.rents.path !== place
              ? ` ${t('market.fromParent', { place: name, parent: data.rents.name })}`
              : ''}{' '}
            <a
              className={c.link}
              href={`${searchHref(data.rents.path)}${searchHref(data.rents.path).includes('?') ? '&' : '?'}operation=rent`}
            >
              {t('market.rents.search', { place: data.rents.name })}
            </a>
          </p>
        </Section>
      ) : null}
      {show.activity !== false ? (
        <Section id="market-activity-heading" title={t('market.activity.heading', { month })}>
          <dl className={c.facts}>
            {fact(t('market.activity.newListings'), formatCount(last.newListings))}
            {fact(
              t('market.activity.priceCuts'),
              formatChange(last.listings ? last.priceCuts / last.listings : 0).replace(/^\+/, ''),
            )}
            {fact(t('market.activity.medianDays'), formatCount(last.medianDays))}
          </dl>
        </Section>
      ) : null}
      {show.ranking !== false ? (
        <Ranking id="market-ranking-heading" title={rankingHeading(place, name, cityName, t)} rows={data.ranking} />
      ) : null}
      {show.ranking !== false && data.cities ? (
        <>
          {data.outline?.length ? (
            <Section id="market-map-heading" title={t('market.map.title')}>
              <CityMap cities={data.cities} outline={data.outline} t={t} id="market-map" classes={c.map ?? {}} />
            </Section>
          ) : null}
          <Ranking id="market-cities-heading" title={t('market.ranking.countryCities')} rows={data.cities} />
        </>
      ) : null}
      {show.search !== false || actions ? (
        <p className={c.actions}>
          {show.search !== false ? (
            <a className={c.button} href={searchHref(last.path)}>
              {t('market.search', { place: name })}
            </a>
          ) : null}
          {actions}
        </p>
      ) : null}
      <p className={c.note} part="note">
        {t('market.method')}
      </p>
    </article>
  );
}
