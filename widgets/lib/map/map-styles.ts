/**
 * How our maps' marks look (marks-layer.ts draws them; the browser's clusters wrap the same images
 * in OpenLayers' styles: ol-cluster.ts): price pills and count badges drawn once per label, size and
 * state on a canvas and kept, the lines and rings' colours; and the part of OpenLayers' CSS the map
 * needs. Nothing here imports OpenLayers (docs/architecture.md "The maps").
 */
import { whenIdle } from '../main-thread.ts';
import { adoptSheet, sheetFor } from '../styles.ts';

export type PinState = 'normal' | 'hover' | 'approximate';

/** An image drawn at a point of the map: its canvas, its size in CSS pixels, and the pixel of it at the point. */
export interface MarkImage {
  readonly canvas: HTMLCanvasElement;
  readonly width: number;
  readonly height: number;
  /** the image's point drawn at the map's, in CSS pixels from its top left */
  readonly anchor: readonly [number, number];
  /** its shape, for what the pointer is over: a box (a pill) or a disc of this radius (a badge) */
  readonly radius?: number;
}

/** A line's colour, width and dashes (CSS pixels). */
export interface LineStyle {
  readonly color: string;
  readonly width: number;
  readonly dash?: readonly number[];
}

/** A ring's fill and outline. */
export interface RingStyle {
  readonly fill: string;
  readonly stroke: LineStyle;
}

const FONT_STACK = 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

/** A canvas of `width` x `height` CSS pixels at the screen's density (at most 2), its context scaled to CSS pixels. */
function canvasOf(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const ratio = Math.min(2, globalThis.devicePixelRatio || 1);
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * ratio);
  canvas.height = Math.ceil(height * ratio);
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  ctx.scale(ratio, ratio);
  return [canvas, ctx];
}

/**
 * Images kept by label or count and state: a visitor who pans over the whole country meets
 * thousands of prices, each a canvas of a few kilobytes, so past this many the cache starts again.
 */
const KEPT = 600;

/** One context measures every label: a canvas is a few milliseconds of a slow phone's main thread. */
let measurer: CanvasRenderingContext2D | undefined;
function textWidth(text: string, font: string): number {
  measurer ??= document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
  measurer.font = font;
  return measurer.measureText(text).width;
}

function keep(cache: Map<string, MarkImage>, key: string, image: MarkImage): MarkImage {
  if (cache.size >= KEPT) cache.clear();
  cache.set(key, image);
  return image;
}

const pills = new Map<string, MarkImage>();

/**
 * A rounded price pill with a tail, drawn once per label and state. A label that starts with "⌂ "
 * (a listing with an open house to come) and then "↓ " (a recent price cut: ol-pins.ts pinLabel)
 * gets a small house and a down arrow drawn before the price instead of the characters, which not
 * every system's fonts have (the test browser's has neither).
 */
export function pill(label: string, state: PinState): MarkImage {
  const key = `${label}|${state}`;
  const kept = pills.get(key);
  if (kept) return kept;
  const font = `600 12px ${FONT_STACK}`;
  const house = label.startsWith('⌂ ');
  const afterHouse = house ? label.slice(2) : label;
  const cut = afterHouse.startsWith('↓ ');
  const text = cut ? afterHouse.slice(2) : afterHouse;
  // the marks' width before the price: the house's 14 px, the arrow's 10 px
  const mark = (house ? 14 : 0) + (cut ? 10 : 0);
  const w = Math.ceil(textWidth(text, font)) + 16 + mark;
  const h = 24;
  const [canvas, ctx] = canvasOf(w + 2, h + 8);
  const bg = state === 'hover' ? '#123c69' : '#ffffff';
  const fg = state === 'hover' ? '#ffffff' : '#0f172a';
  ctx.beginPath();
  ctx.roundRect(1, 1, w, h, 12);
  ctx.moveTo(w / 2 - 5 + 1, h + 1);
  ctx.lineTo(w / 2 + 1, h + 7);
  ctx.lineTo(w / 2 + 5 + 1, h + 1);
  ctx.fillStyle = bg;
  ctx.shadowColor = 'rgba(15,23,42,0.25)';
  ctx.shadowBlur = 3;
  ctx.fill();
  ctx.shadowBlur = 0;
  ctx.lineWidth = 1;
  ctx.strokeStyle = state === 'hover' ? '#123c69' : '#94a3b8';
  if (state === 'approximate') ctx.setLineDash([3, 2]);
  ctx.stroke();
  ctx.fillStyle = fg;
  if (house) {
    // a house's outline, 10 px wide, before the price
    ctx.beginPath();
    for (const [x, y] of [
      [9, 12],
      [14, 7],
      [19, 12],
      [19, 18],
      [9, 18],
    ])
      ctx.lineTo(x as number, y as number);
    ctx.fill();
  }
  if (cut) {
    // a down arrow, 7 px wide, after the house if there is one
    const x = (house ? 14 : 0) + 12.5;
    ctx.fillRect(x - 0.75, 7, 1.5, 6);
    ctx.beginPath();
    ctx.moveTo(x - 3.5, 12);
    ctx.lineTo(x + 3.5, 12);
    ctx.lineTo(x, 17);
    ctx.fill();
  }
  ctx.font = font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, mark + (w - mark) / 2 + 1, h / 2 + 1.5);
  return keep(pills, key, { canvas, width: w + 2, height: h + 8, anchor: [(w + 2) / 2, h + 8] });
}

/** Where a pin's pill stands among the marks: the highlighted one on top of every other. */
export const pinZ = (state: PinState) => (state === 'hover' ? 2000 : 10);

/** A badge's disc and the ring around it, in CSS pixels. */
const badgeDisc = (size: number, highlighted: boolean) => ({
  radius: Math.min(30, 13 + Math.log2(size) * 3),
  ring: highlighted ? 4 : 3,
});

/**
 * Draws a cluster's badge with its count, centred at `x`, `y` of the context: dark grey under 10,
 * black from 10 (docs/product.md §9), ringed in red when it holds the highlighted listing. Returns
 * its radius to its ring's outer edge (what the pointer finds it within).
 */
export function drawBadge(ctx: CanvasRenderingContext2D, x: number, y: number, size: number, highlighted: boolean) {
  const { radius, ring } = badgeDisc(size, highlighted);
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, 2 * Math.PI);
  ctx.fillStyle = size < 10 ? '#4b5563' : '#111111';
  ctx.fill();
  ctx.lineWidth = ring;
  ctx.strokeStyle = highlighted ? '#c8102e' : 'rgba(255,255,255,0.9)';
  ctx.stroke();
  ctx.fillStyle = '#ffffff';
  ctx.font = `700 13px ${FONT_STACK}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(String(size), x, y + 0.5);
  return radius + ring / 2;
}

const badges = new Map<string, MarkImage>();
/** A badge's images are kept by its count and state. */
const badgeKey = (size: number, highlighted: boolean) => `${size}|${highlighted}`;

/** The badges wanted as images and not made yet: made when the browser is next idle. */
const wanted = new Map<string, [number, boolean]>();
let making: (() => void) | undefined;

/**
 * A badge's image if it is made (drawn at once each frame after), else undefined: the marks' layer
 * then draws it straight on the map (drawBadge), and its image is made when the browser is next
 * idle, for the frames of a pan. A canvas for each of fifty counts held a slow phone's main thread
 * for 110 to 185 ms in the map's first frame of cells, where drawing them straight takes 5 to 16
 * (docs/benchmarks.md "Measured apart").
 */
export function keptBadge(size: number, highlighted: boolean): MarkImage | undefined {
  const key = badgeKey(size, highlighted);
  const kept = badges.get(key);
  if (kept) return kept;
  wanted.set(key, [size, highlighted]);
  making ??= whenIdle(makeWanted, 2000);
  return undefined;
}

/** Makes the wanted badges' images, 8 ms of them at a time. */
function makeWanted() {
  const start = performance.now();
  for (const [key, [size, highlighted]] of wanted) {
    wanted.delete(key);
    badge(size, highlighted);
    if (performance.now() - start > 8) break;
  }
  making = wanted.size ? whenIdle(makeWanted, 2000) : undefined;
}

/** A badge as an image of its own, drawn once per count and state: what the marks draw once it is made, and what OpenLayers' styles of the browser's clusters take (ol-cluster.ts). */
export function badge(size: number, highlighted: boolean): MarkImage {
  const key = badgeKey(size, highlighted);
  const kept = badges.get(key);
  if (kept) return kept;
  const { radius, ring } = badgeDisc(size, highlighted);
  const side = Math.ceil(2 * radius + ring + 2);
  const [canvas, ctx] = canvasOf(side, side);
  const c = side / 2;
  const reach = drawBadge(ctx, c, c, size, highlighted);
  return keep(badges, key, { canvas, width: side, height: side, anchor: [c, c], radius: reach });
}

/** Where a badge stands among the marks: bigger ones over smaller, the highlighted one over all. */
export const badgeZ = (size: number, highlighted: boolean) => (highlighted ? 1000 : size);

/**
 * What of OpenLayers' own CSS (ol/ol.css) our map needs: its controls are ours (map-panel.tsx), so
 * only the viewport's rules. Adopted into the element's shadow root before the map is made
 * (prepareMap): a new sheet means a new style pass of the whole shadow tree, which should happen in
 * the browser's own frame, not forced by the map measuring its container.
 */
const MAP_CSS = `
.ol-viewport, .ol-unselectable { -webkit-touch-callout: none; -webkit-user-select: none; user-select: none; -webkit-tap-highlight-color: transparent; }
.ol-viewport { touch-action: pan-x pan-y; border-radius: inherit; }
.ol-viewport canvas { all: unset; overflow: hidden; }
.ol-selectable { -webkit-touch-callout: default; -webkit-user-select: text; user-select: text; }
.ol-grabbing { cursor: grabbing; }
.ol-grab { cursor: move; cursor: grab; }
.ol-unsupported { display: none; }
`;

export function prepareMap(root: ShadowRoot | null): void {
  if (root) adoptSheet(root, sheetFor(MAP_CSS));
}

/** Ecuador and its neighbours under the tiles, so pins never float on white when tiles cannot load. */
export const OUTLINE_STYLES = {
  ecuador: { fill: '#f6f3ea', stroke: { color: '#9c9684', width: 1.2 } },
  neighbour: { fill: '#eceae3', stroke: { color: '#c4bfb0', width: 1 } },
} as const satisfies Record<string, RingStyle>;

/** The line from a spread-out pin to the spot its listings share. */
export const LEG_STYLE: LineStyle = { color: '#475569', width: 1.5 };

/** Where an approximate position may be (a listing's small map: ol-location.ts). */
export const CIRCLE_STYLE: RingStyle = {
  fill: 'rgba(18, 60, 105, 0.16)',
  stroke: { color: '#123c69', width: 2, dash: [6, 4] },
};
