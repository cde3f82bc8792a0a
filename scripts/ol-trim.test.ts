import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OL_TRIMS } from './ol-trim.ts';

const olRoot = dirname(createRequire(import.meta.url).resolve('ol/package.json'));

describe('OpenLayers trimmed from the map chunk (scripts/ol-trim.ts)', () => {
  it('stubs imports OpenLayers still makes: an upgrade that moves one fails here, not silently', () => {
    for (const trim of OL_TRIMS) {
      for (const [source, importer] of trim.from) {
        expect(
          readFileSync(join(olRoot, importer), 'utf8'),
          `${trim.name}: ol/${importer} imports ${source}`,
        ).toContain(`from '${source}'`);
      }
    }
  });
});
