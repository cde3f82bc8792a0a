import { describe, expect, it } from 'vitest';
import { candidateClasses, compileWidgetCss } from './widget-styles.ts';

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
});
