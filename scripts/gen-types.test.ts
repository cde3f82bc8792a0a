import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readElementApis } from './element-api.ts';
import { renderTypes } from './gen-types.ts';

const root = resolve(import.meta.dirname, '..');

describe('dist-types', () => {
  const apis = readElementApis();

  it('is up to date with the elements (run `npm run build` and commit dist-types/)', () => {
    const rendered = renderTypes(apis);
    for (const [name, text] of Object.entries(rendered)) {
      expect(readFileSync(join(root, 'dist-types', name), 'utf8'), `dist-types/${name}`).toBe(text);
    }
  });

  it('describes every element with its tag, attributes and events', () => {
    const tags = apis.map((a) => a.tag);
    expect(tags).toContain('exp-language-switch');
    for (const api of apis) {
      expect(api.summary, `${api.tag} summary`).not.toBe('');
      expect(api.attributes.map((a) => a.name)).toContain('api-url');
      for (const e of api.events) expect(e.detailType, `${api.tag} ${e.name}`).not.toBe('unknown');
    }
    const ls = apis.find((a) => a.tag === 'exp-language-switch');
    expect(ls?.events.map((e) => e.name)).toEqual(['exp-language-change']);
    expect(ls?.attributes.find((a) => a.name === 'tone')).toMatchObject({ kind: 'enum', values: ['dark', 'light'], default: 'dark' });
  });
});
