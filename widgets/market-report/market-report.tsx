/**
 * <exp-market-report> (docs/market.md): a place's market report, drawn by
 * core/view/market-report.tsx as the site's /market pages draw it. On those pages it starts from
 * the figures the server wrote into it (`<script data-exp-market>`), so nothing moves while it
 * takes over, and then follows the language live; anywhere else it asks the data API
 * (public.market_index, public.market_ranking).
 */
import { useEffect, useMemo, useState } from 'react';
import { lastFullMonth, parseMarketReport, type TypeGroup } from '../../core/protocol/market.ts';
import { marketPath, placeSearchPath } from '../../core/routes.ts';
import { MarketReportView, type MarketData, type MarketReportClasses } from '../../core/view/market-report.tsx';
import type { PostgrestClient } from '@supabase/postgrest-js';
import { getClients } from '../lib/data/client.ts';
import { fail } from '../lib/data/client.ts';
import type { ElementProps } from '../lib/element.tsx';
import { useElement } from '../lib/element.tsx';
import { emit } from '../lib/events.ts';
import { siteUrl } from '../lib/site-links.ts';
import type { marketReportAttributes } from './market-report.attributes.ts';
import { AlertButton } from '../lib/alerts/alert-button.tsx';
import { nowDate } from '../../core/clock.ts';

export interface MarketLoadedDetail {
  place: string;
  typeGroup: string;
  /** the month of the figure, 'YYYY-MM-DD' */
  month: string;
  median: number;
  listings: number;
  /** the place the figure is of: `place`, or its parent when `place` had too few listings */
  fromPlace: string;
}

declare module '../lib/events.ts' {
  interface ExpEventMap {
    'exp-market-loaded': MarketLoadedDetail;
  }
}

type State = { status: 'loading' } | { status: 'error' } | { status: 'ready'; data: MarketData };

/** The figures the server wrote into the element for this place and group, if it did. */
function written(host: HTMLElement, place: string, group: TypeGroup): MarketData | undefined {
  try {
    const text = host.querySelector('script[data-exp-market]')?.textContent;
    const parsed = text ? (JSON.parse(text) as { place?: string; typeGroup?: string; data?: MarketData }) : undefined;
    return parsed?.place === place && parsed.typeGroup === group && parsed.data ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Everything a report shows, from the data API in one call (public.market_report). */
async function load(
  rest: PostgrestClient,
  place: string,
  group: TypeGroup,
  months: number,
  withRanking: boolean,
  signal: AbortSignal,
): Promise<MarketData> {
  const { data, error } = await rest.rpc('market_report', { place, type_group: group, months }).abortSignal(signal);
  if (error) fail(error, 'market report');
  const report = parseMarketReport(data);
  return withRanking ? report : { all: report.all, byType: report.byType, ranking: [] };
}

/** The report's look inside the element (its utilities; the site's pages use site/site.css). */
const CLASSES: MarketReportClasses = {
  root: 'flex flex-col gap-5 text-ink',
  heading: 'm-0 text-[clamp(26px,4vw,36px)] font-bold leading-tight',
  lead: 'm-0 text-ink-muted max-w-[70ch]',
  headline: 'rounded-brand border border-line bg-surface-subtle px-5 py-4',
  label: 'm-0 text-sm text-ink-muted',
  figure: 'm-0 my-1 text-[clamp(28px,6vw,40px)] font-bold leading-tight',
  meta: 'm-0 text-sm text-ink-muted',
  change: 'font-semibold',
  up: 'text-success',
  down: 'text-danger',
  section: 'flex flex-col gap-3',
  subheading: 'm-0 text-lg font-semibold',
  scroll: 'overflow-x-auto',
  table: 'w-full border-collapse text-sm',
  th: 'py-2 pr-3 text-left text-xs font-medium uppercase tracking-wide text-ink-muted border-b border-line',
  rowHeading: 'py-2 pr-3 text-left font-semibold border-b border-line',
  td: 'py-2 pr-3 border-b border-line',
  sub: 'block text-xs font-normal text-ink-muted',
  facts: 'm-0 grid grid-cols-[repeat(auto-fit,minmax(180px,1fr))] gap-2',
  fact: 'rounded-md border border-line px-4 py-3',
  factTerm: 'text-sm text-ink-muted',
  factValue: 'm-0 mt-1 text-xl font-bold',
  note: 'm-0 text-xs text-ink-muted',
  link: 'text-primary underline',
  actions: 'm-0 flex flex-wrap items-center gap-3',
  button:
    'inline-flex items-center rounded-full bg-primary px-5 py-2.5 text-[15px] font-semibold text-primary-contrast no-underline hover:bg-primary-hover',
  spark: 'block text-primary',
  chart: {
    figure: 'm-0',
    svg: 'block w-full h-auto max-h-[320px] text-primary',
    band: 'fill-current opacity-[0.14]',
    line: 'stroke-current stroke-[2.5]',
    grid: 'stroke-line',
    label: 'fill-ink-muted text-[20px] cq-md:text-[12px]',
    details: 'mt-2 text-sm',
    summary: 'cursor-pointer text-primary',
    scroll: 'overflow-x-auto',
    table: 'w-full border-collapse text-sm',
    hidden: 'exp-sr-only',
  },
  map: {
    figure: 'm-0 max-w-[520px]',
    svg: 'block w-full h-auto',
    land: 'fill-[#e7edf3] stroke-[#b6c3d1]',
    dot: 'stroke-white stroke-[1.5]',
    steps: ['fill-[#c6dbef]', 'fill-[#9ecae1]', 'fill-[#4292c6]', 'fill-[#2166ac]', 'fill-[#0b2340]'],
    swatches: [
      'inline-block w-3.5 h-3.5 rounded-full bg-[#c6dbef]',
      'inline-block w-3.5 h-3.5 rounded-full bg-[#9ecae1]',
      'inline-block w-3.5 h-3.5 rounded-full bg-[#4292c6]',
      'inline-block w-3.5 h-3.5 rounded-full bg-[#2166ac]',
      'inline-block w-3.5 h-3.5 rounded-full bg-[#0b2340]',
    ],
    name: 'text-[13px] font-semibold fill-ink',
    legend: 'flex flex-wrap gap-x-4 gap-y-1.5 list-none m-0 mt-2 p-0 text-[13px] text-ink-muted',
    item: 'flex items-center gap-1.5',
  },
};

export function MarketReport({
  place,
  typeGroup,
  months,
  showRanking,
  showTitle,
  showFollow,
  headingLevel,
}: ElementProps<typeof marketReportAttributes>) {
  const { t, api, lang, site, host } = useElement();
  const group = typeGroup as TypeGroup;
  const [state, setState] = useState<State>(() => {
    const data = written(host, place, group);
    return data ? { status: 'ready', data } : { status: 'loading' };
  });
  useEffect(() => {
    if (state.status === 'ready' && written(host, place, group)) return;
    const controller = new AbortController();
    setState({ status: 'loading' });
    load(getClients(api).rest, place, group, months, showRanking, controller.signal)
      .then((data) => setState({ status: 'ready', data }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('[exp-market-report] could not load the figures:', error);
        setState({ status: 'error' });
      });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the written figures serve the first render only
  }, [api, place, group, months, showRanking, host]);
  const last = state.status === 'ready' ? lastFullMonth(state.data.all) : undefined;
  useEffect(() => {
    if (last)
      emit(host, 'exp-market-loaded', {
        place,
        typeGroup: group,
        month: last.month,
        median: last.median,
        listings: last.listings,
        fromPlace: last.path,
      });
  }, [host, place, group, last]);
  const show = useMemo(() => ({ title: showTitle, ranking: showRanking }), [showTitle, showRanking]);

  if (state.status === 'loading') return <div aria-busy="true" className="h-[480px] rounded-brand bg-surface-subtle" />;
  if (state.status === 'error' || !last) {
    return (
      <p part="note" role="status" className="m-0 text-ink-muted">
        {state.status === 'error' ? t('market.unavailable') : t('market.noReport')}
      </p>
    );
  }
  return (
    <MarketReportView
      place={place}
      data={state.data}
      t={t}
      now={nowDate()}
      heading={headingLevel === 'h1' ? 'h1' : 'h2'}
      show={show}
      actions={
        showFollow ? (
          // the place whose figure is shown: a thin sector's report is its city's
          <AlertButton
            market={{ place: last.path, type_group: group, name: last.name }}
            text={t('market.follow.button')}
            label={t('market.follow.label', { place: last.name })}
            part="follow-button"
          />
        ) : null
      }
      reportHref={(p) => siteUrl(marketPath(p), site, lang)}
      searchHref={(p) => siteUrl(placeSearchPath(p), site, lang)}
      classes={CLASSES}
    />
  );
}
