/**
 * Pins that share one spot on the search map (ol-map.ts composes them): zooming cannot tell them
 * apart, so they are laid out in a circle around it, each on a leg to the spot, among the marks
 * above the pins and the cells until the view zooms (a pan keeps them: ol-map.ts) or something else
 * is drawn.
 */
import type View from 'ol/View.js';
import { LEG_STYLE } from './map-styles.ts';
import type { Coordinate, Shape } from './marks-layer.ts';
import type { DrawnPin, PinLook } from './ol-pins.ts';

/** A spread-out pin is drawn above every pin and badge (map-styles.ts pinZ, badgeZ). */
const ABOVE = 10_000;

export interface SpreadLayer {
  /** Lays these pins out in a circle around `at`, instead of any spread before. */
  spread(members: ReadonlyArray<Pick<DrawnPin, 'id' | 'label' | 'approximate'>>, at: Coordinate): void;
  /** Where a listing's spread-out pin is, if it is spread out now. */
  pointOf(id: string): Coordinate | undefined;
  /** the pins spread out now */
  readonly pins: ReadonlyArray<{ id: string; at: Coordinate }>;
  /** What the marks' layer draws of the spread now: its legs and its pins. */
  shapes(): Array<Shape<{ id: string }>>;
  /** Gathers the spread pins back. */
  clear(): void;
}

/** The spread-out pins for a view (its resolution sets the circle's size); `look` draws each pin, `redraw` asks the marks to draw again. */
export function createSpread(options: { view: View; look: PinLook; redraw: () => void }): SpreadLayer {
  let legs: { from: Coordinate; pin: Pick<DrawnPin, 'id' | 'label' | 'approximate'> & { at: Coordinate } }[] = [];
  return {
    spread(members, at) {
      const resolution = options.view.getResolution() ?? 1;
      const n = members.length;
      const radius = Math.max(40, n * 9) * resolution;
      legs = members.map((m, i) => {
        const angle = (2 * Math.PI * i) / n - Math.PI / 2;
        return {
          from: at,
          pin: { ...m, at: [at[0]! + radius * Math.cos(angle), at[1]! + radius * Math.sin(angle)] },
        };
      });
      options.redraw();
    },
    pointOf: (id) => legs.find((l) => l.pin.id === id)?.pin.at,
    get pins() {
      return legs.map((l) => l.pin);
    },
    shapes() {
      return legs.flatMap(({ from, pin }): Array<Shape<{ id: string }>> => {
        const { image, z } = options.look(pin);
        return [
          { kind: 'line', from, to: pin.at, style: LEG_STYLE },
          { kind: 'image', at: pin.at, image, z: ABOVE + z, item: { id: pin.id } },
        ];
      });
    },
    clear() {
      if (!legs.length) return;
      legs = [];
      options.redraw();
    },
  };
}
