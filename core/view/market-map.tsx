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

/** How many of the largest markets are named on the map. */
const NAMED = 6;
/** A name's box, in the map's units: the names are 13 units high (site/written.css), about 0.62 of that wide a letter, bold. */
const NAME_HEIGHT = 13;
const letterWidth = 0.62 * NAME_HEIGHT;
const GAP = 3;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}
const overlaps = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

interface Label {
  x: number;
  y: number;
  anchor: 'start' | 'end' | 'middle';
}

/**
 * Where each of the first `named` dots has its name: to its right, else its left, above or below,
 * wherever it covers no name already placed, no other dot and stays on the map; a name that fits
 * nowhere is left out (its city is in the ranking). Larger markets come first, so they keep the
 * right-hand place: Quito and Cumbayá, Guayaquil and Samborondón are a few units apart.
 */
function placeLabels(
  dots: Array<{ x: number; y: number; r: number; name: string }>,
  named: number,
): Array<Label | null> {
  const taken: Box[] = [];
  const dotBoxes = dots.map((d) => ({ left: d.x - d.r, top: d.y - d.r, right: d.x + d.r, bottom: d.y + d.r }));
  return dots.map((d, i) => {
    if (i >= named) return null;
    const w = d.name.length * letterWidth;
    // each place's box (its left and top edges): right, left, above, below the dot
    const spots: Array<[Label['anchor'], number, number]> = [
      ['start', d.x + d.r + GAP, d.y - NAME_HEIGHT / 2],
      ['end', d.x - d.r - GAP - w, d.y - NAME_HEIGHT / 2],
      ['middle', d.x - w / 2, d.y - d.r - GAP - NAME_HEIGHT],
      ['middle', d.x - w / 2, d.y + d.r + GAP],
    ];
    const candidates = spots.map(([anchor, left, top]): [Label, Box] => [
      // (the text's baseline about 11 units below the box's top)
      { x: anchor === 'start' ? left : anchor === 'end' ? left + w : left + w / 2, y: top + 11, anchor },
      { left, top, right: left + w, bottom: top + NAME_HEIGHT },
    ]);
    const fits = candidates.find(
      ([, box]) =>
        box.left >= 0 &&
        box.right <= W &&
        box.top >= 0 &&
        box.bottom <= H &&
        !taken.some((t) => overlaps(t, box)) &&
        !dotBoxes.some((b, j) => j !== i && overlaps(b, box)),
    );
    if (!fits) return null;
    taken.push(fits[1]);
    return fits[0];
  });
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
  const radius = (c: MarketRank) => Math.min(16, Math.round(4 + Math.sqrt(c.listings) / 1.5));
  const bySize = [...placed].sort((a, b) => b.listings - a.listings);
  // the largest markets are named where their names fit; the rest are in the ranking
  const labels = placeLabels(
    bySize.map((c) => ({ x: x(c.lng), y: y(c.lat), r: radius(c), name: c.name })),
    NAMED,
  );
  const lows = [placed.reduce((m, c) => Math.min(m, c.median), Infinity), ...bounds];
  return (
    <figure className={k.figure}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title`} className={k.svg}>
        <title id={`${id}-title`}>{t('market.map.title')}</title>
        <path d={path} className={k.land} />
        {bySize.map((c, i) => {
          const label = labels[i];
          return (
            <g key={c.path}>
              <circle
                cx={x(c.lng)}
                cy={y(c.lat)}
                r={radius(c)}
                className={`${k.dot ?? ''} ${k.steps?.[step(c.median)] ?? ''}`.trim()}
              >
                <title>{`${c.name}: ${t('market.perM2', { price: formatPrice(c.median) })}`}</title>
              </circle>
              {label ? (
                <text x={label.x} y={label.y} textAnchor={label.anchor} className={k.name}>
                  {c.name}
                </text>
              ) : null}
            </g>
          );
        })}
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
