/**
 * Ecuador's cities on a small map, each a dot shaded by its median asking price per m² (five
 * steps, from the cheapest fifth to the dearest) and sized by its listings (docs/market.md): the
 * national market report's map, drawn as SVG by whoever renders it. The mainland only (the
 * Galápagos have no listings); the cities' figures are in the ranking beside it.
 */
import { formatPrice } from '../protocol/format.ts';
import type { MarketRank } from '../protocol/market.ts';
import type { Translate } from '../translate.ts';

type Ring = Array<[number, number]>;

const BOX = { west: -81.2, east: -75.1, south: -5.1, north: 1.5 };
const W = 400;
const H = Math.round((W * (BOX.north - BOX.south)) / (BOX.east - BOX.west));
const x = (lng: number) => Math.round(((lng - BOX.west) / (BOX.east - BOX.west)) * W * 10) / 10;
const y = (lat: number) => Math.round(((BOX.north - lat) / (BOX.north - BOX.south)) * H * 10) / 10;

/** The price steps: the boundaries between five equal parts of the cities (by count). */
export function steps(medians: number[]): number[] {
  const sorted = [...medians].sort((a, b) => a - b);
  return [1, 2, 3, 4].map((k) => sorted[Math.floor((k * sorted.length) / 5)] ?? 0);
}

export interface CityMapClasses {
  figure?: string;
  svg?: string;
  land?: string;
  dot?: string;
  /** the five price steps' dots, cheapest first */
  steps?: string[];
  /** the five price steps' legend swatches, cheapest first */
  swatches?: string[];
  name?: string;
  legend?: string;
  item?: string;
}

export function CityMap({
  cities,
  outline,
  t,
  id,
  classes: k = {},
}: {
  cities: MarketRank[];
  outline: Ring[];
  t: Translate;
  id: string;
  classes?: CityMapClasses;
}) {
  const placed = cities.filter(
    (c): c is MarketRank & { lat: number; lng: number } => c.lat !== null && c.lng !== null && c.lng > BOX.west,
  );
  if (placed.length < 2) return null;
  const bounds = steps(placed.map((c) => c.median));
  const step = (median: number) => bounds.filter((b) => median >= b).length;
  const mainland = outline.filter((ring) => ring.every(([lng]) => lng > BOX.west - 0.5));
  const path = mainland.map((ring) => `M${ring.map(([lng, lat]) => `${x(lng)},${y(lat)}`).join('L')}Z`).join('');
  // the largest markets are named; the rest are in the ranking
  const named = new Set(
    [...placed]
      .sort((a, b) => b.listings - a.listings)
      .slice(0, 6)
      .map((c) => c.path),
  );
  const lows = [placed.reduce((m, c) => Math.min(m, c.median), Infinity), ...bounds];
  return (
    <figure className={k.figure}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title`} className={k.svg}>
        <title id={`${id}-title`}>{t('market.map.title')}</title>
        <path d={path} className={k.land} />
        {[...placed]
          .sort((a, b) => b.listings - a.listings)
          .map((c) => (
            <g key={c.path}>
              <circle
                cx={x(c.lng)}
                cy={y(c.lat)}
                r={Math.min(16, Math.round(4 + Math.sqrt(c.listings) / 1.5))}
                className={`${k.dot ?? ''} ${k.steps?.[step(c.median)] ?? ''}`.trim()}
              >
                <title>{`${c.name}: ${t('market.perM2', { price: formatPrice(c.median) })}`}</title>
              </circle>
              {named.has(c.path) ? (
                <text x={x(c.lng) + 12} y={y(c.lat) + 4} className={k.name}>
                  {c.name}
                </text>
              ) : null}
            </g>
          ))}
      </svg>
      <figcaption>
        <ul className={k.legend}>
          {lows.map((low, i) => (
            <li key={i} className={k.item}>
              <span className={k.swatches?.[i]} aria-hidden="true" />
              {i < lows.length - 1
                ? t('market.map.range', { from: formatPrice(low), to: formatPrice(lows[i + 1] as number) })
                : t('market.map.above', { from: formatPrice(low) })}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}
