/**
 * Our maps' marks, on a canvas of their own over (or, for the outline, under) the tiles: price
 * pills, count badges, the legs of spread-out pins and rings (Ecuador's outline, an approximate
 * position's circle), drawn at each frame the map renders from what the layer's owner says is on
 * the map now, and found again under the pointer. OpenLayers' own vector stack (features, styles,
 * their canvas instructions and replay, its spatial index: about 30 KB gzip) is thus not in the map's
 * chunk: only the browser's animated clusters and the drawing tool load it, in chunks of their own
 * (docs/architecture.md "The maps"). A map of ours draws at most a few hundred marks: the
 * database's cells, ten pins, one spread.
 *
 * The marks are drawn on the canvas of the layer under them (the tiles) when it is one OpenLayers
 * made for the same frame, as OpenLayers' own layers share one (renderer/canvas/Layer.js
 * `useContainer`), and the layer over them may draw on theirs: each canvas more is one more the page
 * hands to the compositor at every frame (docs/benchmarks.md "Measured apart").
 */
import Layer from 'ol/layer/Layer.js';
import type { FrameState } from 'ol/Map.js';
import { compose, create, equivalent, toString as cssMatrix } from 'ol/transform.js';
import { drawBadge, keptBadge, type LineStyle, type MarkImage, type RingStyle } from './map-styles.ts';

/** A point of the map, in the view's projection (Web Mercator). */
export type Coordinate = readonly number[];

/**
 * What a layer draws: an image at a point (a pill) or a count's badge (map-styles.ts drawBadge),
 * standing for `item`, a line, or rings.
 */
export type Shape<T> =
  | { readonly kind: 'image'; readonly at: Coordinate; readonly image: MarkImage; readonly z: number; readonly item: T }
  | {
      readonly kind: 'badge';
      readonly at: Coordinate;
      readonly count: number;
      readonly highlighted: boolean;
      readonly z: number;
      readonly item: T;
    }
  | { readonly kind: 'line'; readonly from: Coordinate; readonly to: Coordinate; readonly style: LineStyle }
  | { readonly kind: 'rings'; readonly rings: readonly Coordinate[][]; readonly style: RingStyle };

export interface Marks<T> {
  readonly layer: Layer;
  /** Draws the marks again at the map's next frame (what `shapes()` says changed). */
  changed(): void;
  /** The item of the topmost image under a pixel of the map (CSS pixels), within `tolerance` pixels of its shape. */
  hit(pixel: readonly number[], tolerance: number): T | undefined;
}

interface Drawn<T> {
  item: T;
  /** its box in CSS pixels of the map: left, top, right, bottom */
  box: [number, number, number, number];
  /** a disc's centre and radius (a badge), else its box is its shape */
  disc?: [number, number, number];
}

/** A layer at `zIndex` that draws `shapes()` at each frame, images last and by their `z`. */
export function createMarks<T>(options: { zIndex: number; shapes: () => ReadonlyArray<Shape<T>> }): Marks<T> {
  // as OpenLayers makes a canvas layer's container (renderer/canvas/Layer.js), so that its layers may share it
  const container = document.createElement('div');
  container.className = 'ol-layer';
  container.style.cssText = 'position:absolute;width:100%;height:100%';
  const own = document.createElement('canvas');
  own.style.cssText = 'position:absolute;left:0;transform-origin:top left';
  container.append(own);
  const ownContext = own.getContext('2d') as CanvasRenderingContext2D;
  // what the last frame drew under the pointer's reach, bottom first
  let drawn: Array<Drawn<T>> = [];

  const render = (frameState: FrameState, target: HTMLElement | null): HTMLElement => {
    const [width, height] = frameState.size as [number, number];
    const ratio = frameState.pixelRatio;
    const w = Math.round(width * ratio);
    const h = Math.round(height * ratio);
    // the canvas in device pixels, shown at the map's size (OpenLayers' pixel transform, unrotated)
    const transform = cssMatrix(compose(create(), width / 2, height / 2, 1 / ratio, 1 / ratio, 0, -w / 2, -h / 2));
    const under = target?.className === 'ol-layer' ? target.firstElementChild : null;
    const shared =
      under instanceof HTMLCanvasElement &&
      under.width === w &&
      under.height === h &&
      // as OpenLayers compares them: the browser reads a transform back rounded (0.333333 at a ratio of 3)
      equivalent(under.style.transform, transform)
        ? under
        : null;
    const ctx = shared ? (shared.getContext('2d') as CanvasRenderingContext2D) : ownContext;
    if (!shared) {
      if (own.width !== w || own.height !== h) {
        own.width = w;
        own.height = h;
      }
      if (!own.style.transform || !equivalent(own.style.transform, transform)) own.style.transform = transform;
    }
    ctx.save();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    if (!shared) ctx.clearRect(0, 0, width, height);
    // coordinates to CSS pixels of the map (OpenLayers' transform: x' = a x + c y + e, y' = b x + d y + f)
    const [a, b, c, d, e, f] = frameState.coordinateToPixelTransform as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const px = (p: Coordinate): [number, number] => [a * p[0]! + c * p[1]! + e, b * p[0]! + d * p[1]! + f];
    const stroke = (style: LineStyle) => {
      ctx.strokeStyle = style.color;
      ctx.lineWidth = style.width;
      ctx.setLineDash(style.dash ? [...style.dash] : []);
      ctx.stroke();
    };
    const shapes = options.shapes();
    const images: Array<Extract<Shape<T>, { kind: 'image' | 'badge' }>> = [];
    for (const shape of shapes) {
      if (shape.kind === 'image' || shape.kind === 'badge') images.push(shape);
      else if (shape.kind === 'line') {
        ctx.beginPath();
        ctx.moveTo(...px(shape.from));
        ctx.lineTo(...px(shape.to));
        stroke(shape.style);
      } else {
        ctx.beginPath();
        for (const ring of shape.rings)
          ring.forEach((point, i) => (i ? ctx.lineTo(...px(point)) : ctx.moveTo(...px(point))));
        ctx.fillStyle = shape.style.fill;
        ctx.fill('evenodd');
        stroke(shape.style.stroke);
      }
    }
    ctx.setLineDash([]);
    // a stable sort: among equals, the owner's order
    images.sort((x, y) => x.z - y.z);
    drawn = [];
    for (const shape of images) {
      const [x, y] = px(shape.at);
      const image = shape.kind === 'badge' ? keptBadge(shape.count, shape.highlighted) : shape.image;
      if (!image) {
        // a badge whose image is not made yet, drawn straight on the map: it reaches at most 32 px
        // from its centre (map-styles.ts)
        if (shape.kind !== 'badge' || x < -32 || y < -32 || x > width + 32 || y > height + 32) continue;
        const radius = drawBadge(ctx, x, y, shape.count, shape.highlighted);
        drawn.push({ item: shape.item, box: [x - radius, y - radius, x + radius, y + radius], disc: [x, y, radius] });
        continue;
      }
      const { item } = shape;
      const left = x - image.anchor[0];
      const top = y - image.anchor[1];
      if (left > width || top > height || left + image.width < 0 || top + image.height < 0) continue;
      ctx.drawImage(image.canvas, left, top, image.width, image.height);
      drawn.push({
        item,
        box: [left, top, left + image.width, top + image.height],
        ...(image.radius !== undefined && { disc: [x, y, image.radius] as [number, number, number] }),
      });
    }
    ctx.restore();
    return shared ? (target as HTMLElement) : container;
  };

  // a layer without a renderer of OpenLayers': the map's renderer calls `render` at each frame, with the element of the layer under it
  class MarksLayer extends Layer {
    override render(frameState: FrameState | null, target: HTMLElement): HTMLElement | null {
      return frameState ? render(frameState, target) : null;
    }
    override unrender() {
      super.unrender();
      drawn = [];
    }
  }
  const layer = new MarksLayer({ zIndex: options.zIndex });
  return {
    layer,
    changed: () => layer.changed(),
    hit(pixel, tolerance) {
      if (!layer.getVisible()) return undefined;
      const [x, y] = pixel as [number, number];
      for (let i = drawn.length - 1; i >= 0; i--) {
        const { box, disc, item } = drawn[i]!;
        if (disc) {
          if (Math.hypot(x - disc[0], y - disc[1]) <= disc[2] + tolerance) return item;
        } else if (
          x >= box[0] - tolerance &&
          x <= box[2] + tolerance &&
          y >= box[1] - tolerance &&
          y <= box[3] + tolerance
        )
          return item;
      }
      return undefined;
    },
  };
}
