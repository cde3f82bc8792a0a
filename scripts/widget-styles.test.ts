import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CHEVRON_PNG } from '../widgets/property-search/select.ts';
import { candidateClasses, compileWidgetCss, scopeVariableDefaults, sources } from './widget-styles.ts';

const widgets = resolve(import.meta.dirname, '../widgets');

describe('the utilities compiled at build time (scripts/widget-styles.ts)', () => {
  it('takes the words of strings and templates, not of comments', () => {
    const words = candidateClasses(`// a flex comment line
/* the grid block */
const a = 'px-3 py-2 cq-md:p-6';
const b = \`rounded-full \${on ? 'bg-primary text-primary-contrast' : 'bg-surface'} h-[400px]\`;
<div className="grid-cols-[minmax(0,1fr)_340px] hover:underline" />`);
    for (const w of [
      'px-3',
      'py-2',
      'cq-md:p-6',
      'rounded-full',
      'bg-primary',
      'text-primary-contrast',
      'bg-surface',
      'h-[400px]',
      'grid-cols-[minmax(0,1fr)_340px]',
      'hover:underline',
    ])
      expect(words, w).toContain(w);
    expect(words).not.toContain('comment');
    expect(words).not.toContain('grid');
  });

  it("compiles the elements' classes with the theme's variables, container breakpoints and px, after the preflight", () => {
    const { css, classes } = compileWidgetCss();
    expect(classes).toBeGreaterThan(250);
    expect(css.indexOf('box-sizing:border-box')).toBeLessThan(css.indexOf('.flex{'));
    expect(css).toContain('.bg-primary{background-color:var(--exp-color-primary');
    expect(css).toContain('@container exp (min-width: 768px){.cq-md\\:p-6{padding:calc(var(--exp-spacing, 4px) * 6)}}');
    expect(css).toContain('.cq-lg\\:grid-cols-\\[minmax\\(0\\,1fr\\)_340px\\]');
    expect(css).not.toMatch(/\d+(\.\d+)?rem\b/);
  });

  it("gives twind's variables only to the classes whose rules read them, ahead of the utilities; variables no rule reads are dropped", () => {
    const rules = [
      '*,::before,::after{--tw-ring-inset:var(--tw-empty,/*!*/ /*!*/);--tw-ring-color:rgba(59,130,246,var(--tw-ring-opacity));--tw-ring-opacity:0.5}',
      '*,::before,::after{box-sizing:border-box;border-width:0}',
      "::before,::after{--tw-content:''}",
      '.ring-2{--tw-ring-shadow:var(--tw-ring-inset) 0 0 0 2px var(--tw-ring-color);box-shadow:var(--tw-ring-shadow)}',
      '@media (min-width:640px){.sm\\:ring-2,.x:is(.a,.b){box-shadow:0 0 0 2px var(--tw-ring-color)}}',
      '.after\\:ring::after{box-shadow:0 0 0 1px var(--tw-ring-color)}',
      '.ring-primary{--tw-ring-color:red}',
    ];
    expect(scopeVariableDefaults(rules)).toEqual([
      '.ring-2,.sm\\:ring-2,.x,.after\\:ring::after{--tw-ring-inset:var(--tw-empty,/*!*/ /*!*/);--tw-ring-color:rgba(59,130,246,var(--tw-ring-opacity));--tw-ring-opacity:0.5}',
      ...rules.slice(1, 2),
      ...rules.slice(3),
    ]);
    // a reader whose subject is no class keeps the defaults for every element
    expect(scopeVariableDefaults([rules[0]!, 'svg{box-shadow:var(--tw-ring-color)}'])).toEqual([
      rules[0],
      'svg{box-shadow:var(--tw-ring-color)}',
    ]);
    // a state or an ancestor the reader waits for: the class it is on
    expect(
      scopeVariableDefaults([
        rules[0]!,
        '.group[open] .group-open\\:ring:focus-visible{box-shadow:var(--tw-ring-color)}',
      ])[0],
    ).toMatch(/^\.group-open\\:ring\{/);
    // the elements' own: no variable is given to every element
    expect(compileWidgetCss().css).not.toMatch(/(^|\})\*,::before,::after\{--tw-/);
  });

  it("draws no SVG image in the elements' CSS (the browser parses each as a document on its main thread): the select's chevron is its path as a PNG", async () => {
    expect(sources(widgets).filter((f) => /url\(\s*["']?data:image\/svg/.test(readFileSync(f, 'utf8')))).toEqual([]);
    const path = `<svg xmlns='http://www.w3.org/2000/svg' width='24' height='24' viewBox='0 0 24 24' fill='none' stroke='#475569' stroke-width='2.5' stroke-linecap='round' stroke-linejoin='round'><path d='M6 9l6 6 6-6'/></svg>`;
    const pixels = (image: Buffer) => sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const drawn = await pixels(Buffer.from(path));
    const shipped = await pixels(Buffer.from(CHEVRON_PNG, 'base64'));
    expect(shipped.info).toMatchObject({ width: 24, height: 24, channels: 4 });
    expect(shipped.data.equals(drawn.data)).toBe(true);
  });
});
