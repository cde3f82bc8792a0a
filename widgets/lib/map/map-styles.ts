/**
 * How the map draws (ol-map.ts): price pills drawn once per label and state on a canvas, cluster
 * badges, and every Style kept and reused (as OpenLayers' cluster example keeps one per size) instead
 * of a new Style per feature per render; and the part of OpenLayers' CSS the map needs.
 */
import { Circle as CircleStyle, Fill, Icon, Stroke, Style, Text } from 'ol/style.js';
import { adoptSheet, sheetFor } from '../styles.ts';

export type PinState = 'normal' | 'hover' | 'approximate';

const pillCache = new Map<string, Icon>();

/**
 * A rounded price pill drawn once per label and state, as an icon. A label that starts with "⌂ "
 * (a listing with an open house to come: ol-pins.ts pinLabel) gets a small house drawn before the
 * price instead of the character, which not every system's fonts have.
 */
export function pill(label: string, state: PinState): Icon {
  const key = `${label}|${state}`;
  let icon = pillCache.get(key);
  if (icon) return icon;
  const ratio = Math.min(2, globalThis.devicePixelRatio || 1);
  const font = '600 12px ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  ctx.font = font;
  const house = label.startsWith('⌂ ');
  const text = house ? label.slice(2) : label;
  const mark = house ? 14 : 0;
  const w = Math.ceil(ctx.measureText(text).width) + 16 + mark;
  const h = 24;
  canvas.width = (w + 2) * ratio;
  canvas.height = (h + 8) * ratio;
  ctx.scale(ratio, ratio);
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
  ctx.font = font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, mark + (w - mark) / 2 + 1, h / 2 + 1.5);
  icon = new Icon({
    img: canvas,
    width: w + 2,
    height: h + 8,
    anchor: [0.5, 1],
    anchorXUnits: 'fraction',
    anchorYUnits: 'fraction',
  });
  pillCache.set(key, icon);
  return icon;
}

const clusterStyles = new Map<string, Style>();

/** Cluster badges: dark grey under 10, black from 10 (docs/product.md §9); one style per size. */
export function clusterStyle(size: number, highlighted: boolean): Style {
  const key = `${size}|${highlighted}`;
  let style = clusterStyles.get(key);
  if (!style) {
    const radius = Math.min(30, 13 + Math.log2(size) * 3);
    style = new Style({
      image: new CircleStyle({
        radius,
        fill: new Fill({ color: size < 10 ? '#4b5563' : '#111111' }),
        stroke: new Stroke({ color: highlighted ? '#c8102e' : 'rgba(255,255,255,0.9)', width: highlighted ? 4 : 3 }),
      }),
      text: new Text({
        text: String(size),
        font: '700 13px ui-sans-serif, system-ui, sans-serif',
        fill: new Fill({ color: '#ffffff' }),
      }),
      zIndex: highlighted ? 1000 : size,
    });
    clusterStyles.set(key, style);
  }
  return style;
}

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

const pinStyles = new Map<string, Style>();

/** A listing's price pill, on top when it is the highlighted one. */
export function pinStyle(label: string, state: PinState): Style {
  const key = `${label}|${state}`;
  let style = pinStyles.get(key);
  if (!style) {
    style = new Style({ image: pill(label, state), zIndex: state === 'hover' ? 2000 : 10 });
    pinStyles.set(key, style);
  }
  return style;
}

/** Ecuador and its neighbours under the tiles, so pins never float on white when tiles cannot load. */
export const OUTLINE_STYLES = {
  ecuador: new Style({ fill: new Fill({ color: '#f6f3ea' }), stroke: new Stroke({ color: '#9c9684', width: 1.2 }) }),
  neighbour: new Style({ fill: new Fill({ color: '#eceae3' }), stroke: new Stroke({ color: '#c4bfb0', width: 1 }) }),
};

/** The line from a spread-out pin to the spot its listings share. */
export const LEG_STYLE = new Style({ stroke: new Stroke({ color: '#475569', width: 1.5 }) });
