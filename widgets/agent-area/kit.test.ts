import { describe, expect, it } from 'vitest';
import { kitAttributes, kitSnippet } from './kit.ts';

describe("an agent's site kit", () => {
  it('names her as the lead owner of a search or a valuation, and as the agent of her profile, in her language and colour', () => {
    expect(kitAttributes('exp-property-search', 12, 'es', '#7A1F5C')).toEqual([
      ['lead-agent-id', '12'],
      ['lang', 'es'],
      ['style', '--exp-color-primary: #7a1f5c'],
    ]);
    // the brand's own colour (the theme's default) needs no style
    expect(kitAttributes('exp-agent-profile', 12, 'en', '#123c69')).toEqual([
      ['agent-id', '12'],
      ['lang', 'en'],
    ]);
    // a colour that is not one: left out
    expect(kitAttributes('exp-home-valuation', 3, 'es', 'red;background:url(x)')).toEqual([
      ['lead-agent-id', '3'],
      ['lang', 'es'],
    ]);
  });

  it('writes the script once and the element, every value escaped for HTML', () => {
    expect(
      kitSnippet('https://exp.example/widgets/exp-widgets.js', 'exp-property-search', [['lead-agent-id', '12']]),
    ).toBe(
      '<script type="module" src="https://exp.example/widgets/exp-widgets.js"></script>\n<exp-property-search lead-agent-id="12"></exp-property-search>',
    );
    expect(kitSnippet('https://x.example/a.js?b="c"&d', 'exp-agent-profile', [['lang', '"><script>']])).toBe(
      '<script type="module" src="https://x.example/a.js?b=&quot;c&quot;&amp;d"></script>\n<exp-agent-profile lang="&quot;&gt;&lt;script&gt;"></exp-agent-profile>',
    );
  });
});
