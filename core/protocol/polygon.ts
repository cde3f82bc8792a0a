/**
 * An area drawn on the map (docs/decisions.md #27): a polygon of [lng, lat] points, what
 * internal.area_polygon() reads in SQL. In an address it is written compactly: every coordinate in
 * 1e-5 degrees (about a metre), each point as its difference from the one before, zig-zag signed, in
 * 5-bit groups of the base64url alphabet (the idea of Google's encoded polyline, in characters an
 * address carries as they are). A district of 30 points is about 150 characters.
 */

export type LngLat = [number, number];

/** As internal.area_polygon() accepts: 3 to 200 points. */
export const POLYGON_POINTS = { min: 3, max: 200 } as const;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));
const SCALE = 1e5;

const round = (n: number) => Math.round(n * SCALE) / SCALE;

/** Twice the signed area (degrees²): zero for points on one line. */
function doubleArea(points: readonly LngLat[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const [x1, y1] = points[i] as LngLat;
    const [x2, y2] = points[(i + 1) % points.length] as LngLat;
    sum += x1 * y2 - x2 * y1;
  }
  return sum;
}

/**
 * A polygon when it is one: 3 to 200 [lng, lat] pairs of finite numbers within the world's degrees,
 * enclosing some area, rounded to 1e-5 degrees; a closing point equal to the first is dropped and
 * repeated points are kept once. The one rule for an area from an address, an attribute or a request.
 */
export function validPolygon(value: unknown): LngLat[] | undefined {
  if (!Array.isArray(value) || value.length > POLYGON_POINTS.max + 1) return undefined;
  const points: LngLat[] = [];
  for (const p of value) {
    if (!Array.isArray(p) || p.length !== 2 || !p.every((n) => typeof n === 'number' && Number.isFinite(n)))
      return undefined;
    const [lng, lat] = p as [number, number];
    if (Math.abs(lng) > 180 || Math.abs(lat) > 90) return undefined;
    const point: LngLat = [round(lng), round(lat)];
    const last = points.at(-1);
    if (!last || last[0] !== point[0] || last[1] !== point[1]) points.push(point);
  }
  const first = points[0];
  const last = points.at(-1);
  if (first && last && points.length > 1 && first[0] === last[0] && first[1] === last[1]) points.pop();
  if (points.length < POLYGON_POINTS.min || points.length > POLYGON_POINTS.max) return undefined;
  if (Math.abs(doubleArea(points)) < 1e-9) return undefined;
  return points;
}

function writeNumber(n: number, out: string[]): void {
  let v = n < 0 ? -2 * n - 1 : 2 * n;
  while (v >= 32) {
    out.push(ALPHABET[(v % 32) + 32] as string);
    v = Math.floor(v / 32);
  }
  out.push(ALPHABET[v] as string);
}

/** The compact form of a valid polygon (validPolygon). */
export function encodePolygon(points: readonly LngLat[]): string {
  const out: string[] = [];
  let px = 0;
  let py = 0;
  for (const [lng, lat] of points) {
    const x = Math.round(lng * SCALE);
    const y = Math.round(lat * SCALE);
    writeNumber(x - px, out);
    writeNumber(y - py, out);
    px = x;
    py = y;
  }
  return out.join('');
}

/** Back from encodePolygon(); anything else (a bad character, a cut-off number, no area) is no polygon. */
export function decodePolygon(text: string | null | undefined): LngLat[] | undefined {
  if (typeof text !== 'string' || text.length === 0 || text.length > 4000) return undefined;
  const numbers: number[] = [];
  let v = 0;
  let factor = 1;
  for (const c of text) {
    const d = VALUE.get(c);
    if (d === undefined) return undefined;
    v += (d % 32) * factor;
    if (d >= 32) {
      factor *= 32;
      if (factor > 2 ** 40) return undefined;
      continue;
    }
    numbers.push(v % 2 ? -(v + 1) / 2 : v / 2);
    v = 0;
    factor = 1;
  }
  if (factor !== 1 || numbers.length % 2) return undefined;
  const points: LngLat[] = [];
  let x = 0;
  let y = 0;
  for (let i = 0; i < numbers.length; i += 2) {
    x += numbers[i] as number;
    y += numbers[i + 1] as number;
    points.push([x / SCALE, y / SCALE]);
  }
  return validPolygon(points);
}
