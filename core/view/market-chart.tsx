/**
 * A place's market index as a chart (docs/market.md): the median asking price per m² month by
 * month as a line, the middle half of the listings (25th to 75th percentile) as a band, drawn as
 * SVG by whoever renders it (the server's market pages, the element), so it needs no chart
 * library and a crawler reads it; its figures follow as a table for those who cannot see it.
 */
import { formatPrice } from '../protocol/format.ts';
import { type MarketFigure } from '../protocol/market.ts';
import { formatMonth } from '../protocol/month.ts';
import type { Translate } from '../translate.ts';

const W = 640;
const H = 240;
const PAD = { left: 76, right: 12, top: 12, bottom: 30 };
/** SVG numbers with one decimal: nothing but noise past it */
const r1 = (v: number) => Math.round(v * 10) / 10;

export interface MarketChartClasses {
  figure?: string;
  svg?: string;
  band?: string;
  line?: string;
  grid?: string;
  label?: string;
  table?: string;
  details?: string;
  summary?: string;
  scroll?: string;
  /** what only a screen reader reads (the table's caption, which the summary already shows) */
  hidden?: string;
}

/** A small trend line (a ranking's row): the medians, null where a month has too few listings. */
export function Sparkline({
  values,
  label,
  className,
}: {
  values: Array<number | null>;
  label: string;
  className?: string;
}) {
  const known = values.filter((v): v is number => v !== null);
  if (known.length < 2) return null;
  const lo = Math.min(...known);
  const hi = Math.max(...known);
  const x = (i: number) => (i / Math.max(1, values.length - 1)) * 80;
  const y = (v: number) => 22 - ((v - lo) / (hi - lo || 1)) * 20;
  const points = values.flatMap((v, i) => (v === null ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`])).join(' ');
  return (
    <svg viewBox="0 0 80 24" width="80" height="24" role="img" aria-label={label} className={className}>
      <polyline
        points={points}
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function MarketChart({
  figures,
  place,
  t,
  id,
  classes: c = {},
}: {
  figures: MarketFigure[];
  place: string;
  t: Translate;
  id: string;
  classes?: MarketChartClasses;
}) {
  if (figures.length < 2) return null;
  const lo = Math.min(...figures.map((f) => f.p25));
  const hi = Math.max(...figures.map((f) => f.p75));
  const span = hi - lo || 1;
  const x = (i: number) => PAD.left + (i / (figures.length - 1)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - (v - lo) / span) * (H - PAD.top - PAD.bottom);
  const line = figures.map((f, i) => `${x(i).toFixed(1)},${y(f.median).toFixed(1)}`).join(' ');
  const band = [
    ...figures.map((f, i) => `${x(i).toFixed(1)},${y(f.p75).toFixed(1)}`),
    ...figures.map((f, i) => `${x(i).toFixed(1)},${y(f.p25).toFixed(1)}`).reverse(),
  ].join(' ');
  const ticks = [lo, lo + span / 2, hi];
  const first = figures[0] as MarketFigure;
  const last = figures[figures.length - 1] as MarketFigure;
  const labelled = [0, Math.floor((figures.length - 1) / 2), figures.length - 1];
  return (
    <figure className={c.figure}>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        className={c.svg}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-title`}>{t('market.chart.title')}</title>
        <desc id={`${id}-desc`}>
          {t('market.chart.desc', {
            from: formatMonth(first.month, t),
            first: formatPrice(first.median),
            to: formatMonth(last.month, t),
            last: formatPrice(last.median),
          })}
        </desc>
        {ticks.map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={r1(y(v))} y2={r1(y(v))} className={c.grid} />
            <text x={PAD.left - 8} y={r1(y(v) + 4)} textAnchor="end" className={c.label}>
              {formatPrice(Math.round(v))}
            </text>
          </g>
        ))}
        <polygon points={band} className={c.band} />
        <polyline points={line} fill="none" className={c.line} />
        {labelled.map((i) => (
          <text
            key={i}
            x={r1(x(i))}
            y={H - 8}
            textAnchor={i === 0 ? 'start' : i === figures.length - 1 ? 'end' : 'middle'}
            className={c.label}
          >
            {formatMonth((figures[i] as MarketFigure).month, t, 'short')}
          </text>
        ))}
      </svg>
      <details className={c.details}>
        <summary className={c.summary}>{t('market.chart.table')}</summary>
        <div className={c.scroll}>
          <table className={c.table}>
            <caption className={c.hidden}>{t('market.chart.table')}</caption>
            <thead>
              <tr>
                {(['month', 'median', 'middle', 'listings'] as const).map((k) => (
                  <th key={k} scope="col">
                    {t(`market.chart.${k}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {figures.map((f) => (
                <tr key={f.month}>
                  <th scope="row">
                    {formatMonth(f.month, t, 'short')}
                    {f.path !== place ? ` (${f.name})` : ''}
                  </th>
                  <td>{formatPrice(f.median)}</td>
                  <td>
                    {formatPrice(f.p25)}–{formatPrice(f.p75)}
                  </td>
                  <td>{f.listings}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
