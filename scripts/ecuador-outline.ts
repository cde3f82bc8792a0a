/**
 * A small outline of Ecuador (with the Galápagos) and its neighbours, made at build time from
 * Natural Earth's public-domain 1:50m countries (the world-atlas package), simplified and rounded.
 * The map draws it under the tiles, so pins never float on white when tiles cannot load.
 * Served to the widgets as the virtual module `virtual:ecuador-outline`: in the chunked build a
 * URL to a hashed JSON file beside the chunks (data, not code: it loads in parallel and keeps the
 * map chunk small), in the single-file bundle and in development the data itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { keptForProcess } from './element-graph.ts';

type Ring = Array<[number, number]>;

function perpendicular(p: [number, number], a: [number, number], b: [number, number]): number {
  const [x, y] = p;
  const [x1, y1] = a;
  const [x2, y2] = b;
  const dx = x2 - x1;
  const dy = y2 - y1;
  if (dx === 0 && dy === 0) return Math.hypot(x - x1, y - y1);
  return Math.abs(dy * x - dx * y + x2 * y1 - y2 * x1) / Math.hypot(dx, dy);
}

/** Douglas-Peucker */
export function simplify(ring: Ring, tolerance: number): Ring {
  if (ring.length < 4) return ring;
  const keep = new Uint8Array(ring.length);
  keep[0] = keep[ring.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, ring.length - 1]];
  while (stack.length) {
    const [s, e] = stack.pop() as [number, number];
    let max = 0;
    let index = -1;
    for (let i = s + 1; i < e; i++) {
      const d = perpendicular(ring[i] as [number, number], ring[s] as [number, number], ring[e] as [number, number]);
      if (d > max) {
        max = d;
        index = i;
      }
    }
    if (index >= 0 && max > tolerance) {
      keep[index] = 1;
      stack.push([s, index], [index, e]);
    }
  }
  return ring.filter((_, i) => keep[i]);
}

const round = (n: number) => Math.round(n * 1000) / 1000;

export function buildOutline(): { ecuador: Ring[]; neighbours: Ring[] } {
  const require = createRequire(import.meta.url);
  const topology = JSON.parse(readFileSync(require.resolve('world-atlas/countries-50m.json'), 'utf8')) as Topology;
  const countries = feature(topology, topology.objects.countries as GeometryCollection) as unknown as {
    features: Array<{ id: string; geometry: { type: string; coordinates: unknown } }>;
  };
  const rings = (id: string, tolerance: number): Ring[] => {
    const f = countries.features.find((x) => String(x.id) === id);
    if (!f) throw new Error(`country ${id} not in the data`);
    const polygons = (f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates) as Ring[][];
    return polygons
      .map((poly) => simplify(poly[0] as Ring, tolerance).map(([x, y]) => [round(x), round(y)] as [number, number]))
      .filter((r) => r.length >= 4);
  };
  return { ecuador: rings('218', 0.004), neighbours: [...rings('170', 0.02), ...rings('604', 0.02)] };
}

export function ecuadorOutline(options: { asset: boolean }): Plugin {
  const id = 'virtual:ecuador-outline';
  let serving = false;
  return {
    name: 'ecuador-outline',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    resolveId(source) {
      return source === id ? '\0' + id : undefined;
    },
    load(resolved) {
      if (resolved !== '\0' + id) return undefined;
      const data = keptForProcess('ecuador-outline', () => JSON.stringify(buildOutline()));
      if (!options.asset || serving) return `export default { data: ${data} };`;
      const ref = this.emitFile({ type: 'asset', name: 'ecuador-outline.json', source: data });
      return `export default { url: import.meta.ROLLUP_FILE_URL_${ref} };`;
    },
  };
}
