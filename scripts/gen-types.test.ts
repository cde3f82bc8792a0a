import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { THEME } from '../widgets/lib/theme-docs.ts';
import { readElementApis } from './element-api.ts';
import { REFERENCE_END, REFERENCE_START, renderManifest, renderReference, renderTypes } from './gen-types.ts';

const root = resolve(import.meta.dirname, '..');

describe('dist-types', () => {
  const apis = readElementApis();

  it('is up to date with the elements, as are custom-elements.json and the reference in docs/elements.md (run `npm run build` and commit)', () => {
    const rendered = renderTypes(apis);
    for (const [name, text] of Object.entries(rendered)) {
      expect(readFileSync(join(root, 'dist-types', name), 'utf8'), `dist-types/${name}`).toBe(text);
    }
    expect(JSON.parse(readFileSync(join(root, 'dist-types/custom-elements.json'), 'utf8'))).toEqual(
      renderManifest(apis),
    );
    const doc = readFileSync(join(root, 'docs/elements.md'), 'utf8');
    expect(doc.indexOf(REFERENCE_START), 'docs/elements.md has the reference markers').toBeGreaterThanOrEqual(0);
    expect(doc.slice(doc.indexOf(REFERENCE_START) + REFERENCE_START.length, doc.indexOf(REFERENCE_END)).trim()).toBe(
      renderReference(apis).trim(),
    );
  });

  it('declares a schema several elements share once (the filters of the map and the search), each element extending it', () => {
    const index = renderTypes(apis)['index.d.ts'] as string;
    expect(index.match(/^  'city'\?: string;$/gm)).toHaveLength(1);
    expect(index.match(/^  city: string \| undefined;$/gm)).toHaveLength(1);
    expect(index).toContain('export interface ExpPropertySearchElement extends HTMLElement, ExpFilterProperties {');
    expect(index).toContain('export interface ExpPropertyMapAttributes extends ExpFilterAttributes {');
    const shared = apis
      .find((a) => a.tag === 'exp-property-map')
      ?.attributes.filter((a) => a.shared === 'filterAttributes')
      .map((a) => a.name);
    expect(shared).toEqual(expect.arrayContaining(['city', 'min-price', 'agent-id']));
  });

  it('the manifest lists every element with its attributes, events, parts and the theme variables; package.json points to it', () => {
    const manifest = renderManifest(apis) as {
      modules: Array<{
        declarations: Array<{
          tagName: string;
          attributes: unknown[];
          events: unknown[];
          cssParts: unknown[];
          cssProperties: Array<{ name: string }>;
        }>;
      }>;
    };
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      customElements: string;
      exports: Record<string, unknown>;
    };
    expect(pkg.customElements).toBe('dist-types/custom-elements.json');
    expect(Object.keys(pkg.exports)).toEqual(
      expect.arrayContaining(['.', './bundle', './react', './custom-elements.json']),
    );
    const declarations = manifest.modules.flatMap((m) => m.declarations);
    expect(declarations.map((d) => d.tagName).sort()).toEqual(apis.map((a) => a.tag).sort());
    for (const d of declarations) {
      expect(d.attributes.length, d.tagName).toBeGreaterThan(1);
      expect(d.cssParts.length, d.tagName).toBeGreaterThan(0);
      for (const name of Object.keys(THEME))
        expect(
          d.cssProperties.map((p) => p.name),
          d.tagName,
        ).toContain(name);
    }
    // every element has at least one part besides root, and every event a typed detail
    for (const a of apis)
      expect(a.cssParts.map((p) => p.name).filter((n) => n !== 'root').length, a.tag).toBeGreaterThan(0);
  });

  it('a TypeScript + React consumer compiles against the package: every tag, attribute type and event detail', () => {
    const dir = join(root, '.cache', 'consumer');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const lines = [
      "import 'exp-ecuador-widgets';",
      "import type {} from 'exp-ecuador-widgets/react';",
      "import type * as Exp from 'exp-ecuador-widgets';",
      '',
    ];
    for (const el of apis) {
      const v = el.tag.replace(/-/g, '_');
      lines.push(`const ${v}: Exp.${el.className} = document.createElement('${el.tag}');`);
      for (const a of el.attributes) lines.push(`${v}.${a.property}${a.property.includes('-') ? '' : ''};`);
      for (const e of el.events)
        lines.push(
          `${v}.addEventListener('${e.name}', (e) => { const detail: ${e.detailName ? `Exp.${e.detailName}` : e.detailType} = e.detail; void detail; });`,
        );
    }
    lines.push(
      '',
      "document.querySelector('exp-agent-directory')?.addEventListener('exp-agent-open', (e) => e.detail.id.toUpperCase());",
      '// @ts-expect-error: an event detail has only its own fields',
      "document.querySelector('exp-property-search')?.addEventListener('exp-search', (e) => e.detail.nope);",
      'export const App = () => (',
      '  <>',
      '    <exp-property-search city="Quito" sync-url="false" beds={3} onexp-search={(e) => e.detail.sort.toUpperCase()} />',
      '    <exp-language-switch tone="light" />',
      '    {/* @ts-expect-error: tone is dark or light */}',
      '    <exp-language-switch tone="purple" />',
      '  </>',
      ');',
    );
    const file = join(dir, 'consumer.tsx');
    writeFileSync(file, lines.join('\n'));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      jsx: ts.JsxEmit.ReactJSX,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: false,
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName.replace(root, '')}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
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
    expect(ls?.attributes.find((a) => a.name === 'tone')).toMatchObject({
      kind: 'enum',
      values: ['dark', 'light'],
      default: 'dark',
    });
  });
});
