/**
 * A place's market report (docs/market.md): /market for Ecuador, /market/provincia/pichincha,
 * /market/quito, /market/quito/cumbaya, in both languages. The headline median asking price per
 * m² and its change over a year, 24 months as a chart (SVG, with its table), the figure by type,
 * what a typical flat costs, last month's activity, the places within ranked with their trend
 * lines, and the way to the place's search; JSON-LD Dataset. A place too thin for a figure of its
 * own is sent to the nearest place that has one (page-handlers.ts); one the index does not know is a 404.
 */
import type { Translate } from '../../core/translate.ts';
import type { Lang } from '../../core/lang.ts';
import { formatCount, formatPrice } from '../../core/protocol/format.ts';
import {
  formatChange,
  lastFullMonth,
  placeKind,
  yearChange,
  type MarketFigure,
  type MarketRank,
} from '../../core/protocol/market.ts';
import { formatMonth } from '../../core/protocol/month.ts';
import { localizedPath, marketPath, placeSearchPath } from '../../core/routes.ts';
import { MarketReportView, type MarketData, type MarketReportClasses } from '../../core/view/market-report.tsx';
import { jsonLdText } from '../../core/protocol/structured-data.ts';
import type { HeadInfo } from './head.tsx';
import { renderBody } from './html.tsx';

export interface MarketPageContext {
  lang: Lang;
  t: Translate;
  origin: string;
  now: Date;
  /** a sector's city as its listings name it (the index names only the places it has figures of) */
  cityName?: string | undefined;
}

/** The site's classes for the report (site/site.css, "a place's market report"). */
const SITE_CLASSES: MarketReportClasses = {
  root: 'market',
  lead: 'market__lead',
  headline: 'market__headline',
  label: 'market__label',
  figure: 'market__figure',
  meta: 'market__meta',
  change: 'market__change',
  up: 'market__change--up',
  down: 'market__change--down',
  section: 'market__section',
  scroll: 'market__scroll',
  table: 'market__table',
  sub: 'market__sub',
  facts: 'market__facts',
  note: 'market__note',
  button: 'btn btn--primary',
  actions: 'market__actions',
  spark: 'market__spark',
  chart: {
    figure: 'market__chart',
    svg: 'market__svg',
    band: 'market__band',
    line: 'market__line',
    grid: 'market__grid',
    label: 'market__axis',
    table: 'market__table',
    scroll: 'market__scroll',
    hidden: 'sr-only',
  },
  map: {
    figure: 'market-map',
    svg: 'market-map__svg',
    land: 'market-map__land',
    dot: 'market-map__dot',
    steps: [1, 2, 3, 4, 5].map((n) => `market-map__q${n}`),
    swatches: [1, 2, 3, 4, 5].map((n) => `market-map__swatch market-map__q${n}`),
    name: 'market-map__name',
    legend: 'market-map__legend',
  },
};

/** The place's parents for the way back: Ecuador, then its province and city where the index names them. */
function crumbsOf(
  place: string,
  figures: MarketFigure[],
  ranking: MarketRank[],
  cityName?: string,
): Array<[string, string]> {
  const items: Array<[string, string]> = [];
  if (place === 'ecuador') return items;
  items.push(['Ecuador', 'ecuador']);
  if (placeKind(place) === 'sector') {
    const city = place.split('/')[0] as string;
    const name =
      figures.find((f) => f.path === city)?.name ?? ranking.find((r) => r.path === city)?.name ?? cityName ?? city;
    items.push([name, city]);
  }
  return items;
}

export function renderMarket(
  place: string,
  data: MarketData,
  ctx: MarketPageContext,
): { status: number; head: HeadInfo; body: string } {
  const { t, lang, origin, now } = ctx;
  const last = lastFullMonth(data.all, now);
  // a place has a report when last month's figure is its own
  if (!last || last.path !== place)
    return { status: 404, head: { robots: 'noindex', title: t('site.meta.market.title') }, body: '' };
  const name = last.name;
  const change = yearChange(data.all, last);
  const month = formatMonth(last.month, t);
  const url = new URL(marketPath(place, lang), origin).href;
  const crumbs = crumbsOf(place, data.all, data.ranking, ctx.cityName);
  const { body, hoisted } = renderBody(
    <>
      <nav
        className="crumbs"
        aria-label={t('site.listing.breadcrumb')}
        data-i18n-attr="aria-label:site.listing.breadcrumb"
      >
        <ol>
          <li>
            {place === 'ecuador' ? (
              <span data-i18n="market.crumbs">{t('market.crumbs')}</span>
            ) : (
              <a href={marketPath('ecuador', lang)} data-i18n="market.crumbs">
                {t('market.crumbs')}
              </a>
            )}
          </li>
          {crumbs.slice(1).map(([n, p]) => (
            <li key={p}>
              <a href={marketPath(p, lang)}>{n}</a>
            </li>
          ))}
          {place !== 'ecuador' ? <li aria-current="page">{name}</li> : null}
        </ol>
      </nav>
      {/* the element takes the report over (and follows the language live), starting from these figures */}
      <exp-market-report place={place} heading-level="h1">
        <script
          type="application/json"
          data-exp-market=""
          dangerouslySetInnerHTML={{ __html: jsonLdText({ place, typeGroup: 'all', month: last.month, data }) }}
        />
        <MarketReportView
          place={place}
          data={data}
          t={t}
          now={now}
          heading="h1"
          reportHref={(p) => marketPath(p, lang)}
          searchHref={(p) => placeSearchPath(p, lang)}
          classes={SITE_CLASSES}
        />
      </exp-market-report>
    </>,
  );
  const first = data.all.find((f) => f.month <= last.month) as MarketFigure;
  const dataset = {
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    name: t('market.dataset', { place: name }),
    description: t('market.lead'),
    url,
    isAccessibleForFree: true,
    temporalCoverage: `${first.month.slice(0, 7)}/${last.month.slice(0, 7)}`,
    spatialCoverage: { '@type': 'Place', name: place === 'ecuador' ? 'Ecuador' : `${name}, Ecuador` },
    variableMeasured: t('market.headline', { month }),
    creator: {
      '@type': 'Organization',
      name: 'eXp Realty Ecuador',
      url: new URL(localizedPath('/', lang), origin).href,
    },
  };
  const breadcrumbs = {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      [t('market.crumbs'), 'ecuador'],
      ...crumbs.slice(1),
      ...(place === 'ecuador' ? [] : [[name, place]]),
    ].map(([n, p], i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: n,
      item: new URL(marketPath(p as string, lang), origin).href,
    })),
  };
  const price = t('market.perM2', { price: formatPrice(last.median) });
  return {
    status: 200,
    head: {
      route: marketPath(place),
      title:
        place === 'ecuador' ? t('site.meta.market.title') : t('site.meta.market.titlePlace', { place: name, price }),
      description: t('site.meta.market.descriptionPlace', {
        place: name,
        price,
        month,
        count: formatCount(last.listings),
        change: change === null ? '' : `, ${t('market.change', { change: formatChange(change) })}`,
      }),
      ogType: 'website',
      jsonLd: [dataset, breadcrumbs],
      hoisted,
    },
    body,
  };
}
