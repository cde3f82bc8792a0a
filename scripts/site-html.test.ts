import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SITE } from '../core/site.ts';
import { fillTexts } from '../core/fill.ts';
import {
  alternateLinks,
  bootScript,
  expandEach,
  expandHero,
  expandIcons,
  expandSearchHero,
  expandSections,
  fillLinks,
  sitePage,
  SITE_ICONS,
} from './site-html.ts';
import { languagePreloads, widgetPreloads } from './page-preloads.ts';
import { SEARCH_HERO_END, SEARCH_HERO_START } from '../core/search-hero.ts';

const root = resolve(import.meta.dirname, '..');
const en = JSON.parse(readFileSync(join(root, 'core/locales/en.json'), 'utf8'));
const es = JSON.parse(readFileSync(join(root, 'core/locales/es.json'), 'utf8'));

describe('the site build (scripts/site-html.ts)', () => {
  it('fills every static text and attribute of every page, in both languages, escaped', () => {
    for (const page of readdirSync(join(root, 'site')).filter((f) => f.endsWith('.html'))) {
      const html = sitePage(readFileSync(join(root, 'site', page), 'utf8'));
      const { html: out, keys } = fillTexts(html, en, { es });
      expect(keys.length, page).toBeGreaterThanOrEqual(3);
      // no element that asks for a text is left empty
      expect(out, page).not.toMatch(/data-i18n="[^"]+"[^>]*><\//);
      expect(fillTexts(html, es, { en }, 'es').html).not.toEqual(out);
    }
    const { html } = fillTexts('<p data-i18n="x"></p><a data-i18n-attr="title:x"></a>', { x: '<b>"&' });
    expect(html).toBe(
      '<p data-i18n="x">&lt;b&gt;&quot;&amp;</p><a title="&lt;b&gt;&quot;&amp;" data-i18n-attr="title:x"></a>',
    );
    expect(
      fillTexts('<p data-i18n="a" data-i18n-params=\'{"n":{"$t":"b"}}\'></p>', { a: 'in {{n}}', b: 'Quito' }).html,
    ).toContain('>in Quito<');
  });

  it("ships each page's films as their posters: an image for each, no <video> in the HTML (core/search-hero.ts filmHtml)", () => {
    const films: string[] = [];
    for (const page of readdirSync(join(root, 'site')).filter((f) => f.endsWith('.html'))) {
      const html = sitePage(readFileSync(join(root, 'site', page), 'utf8'));
      expect(html, page).not.toMatch(/<video|<!--exp:film/);
      for (const m of html.matchAll(/<img class="hero__media" data-video="([a-z]+)"[^>]*>/g))
        films.push(
          `${page} ${m[1]} ${/fetchpriority="high"/.test(m[0]) ? 'first' : /loading="lazy"/.test(m[0]) ? 'lazy' : '?'}`,
        );
    }
    expect(films.sort()).toEqual([
      'index.html coast lazy',
      'index.html quito first',
      'join.html cuenca first',
      'search-properties.html quito first',
    ]);
  });

  it('draws no SVG image on any page of the site (a document of its own each, on the main thread): icons inline, press names as text, ticks in CSS', () => {
    const css = readFileSync(join(root, 'site/site.css'), 'utf8');
    expect(css).not.toMatch(/url\(\s*["']?[^)]*(?:\.svg|image\/svg)/);
    const shown: string[] = [];
    for (const page of readdirSync(join(root, 'site')).filter((f) => f.endsWith('.html'))) {
      const { html } = fillTexts(sitePage(readFileSync(join(root, 'site', page), 'utf8')), en, { es });
      expect(html, page).not.toMatch(/<(?:img|image|source|input)\b[^>]*\.svg\b|<!--exp:icon/);
      for (const m of html.matchAll(/<span class="tile__icon"><svg ([^>]*)>/g)) shown.push(`${page} ${m[1]}`);
    }
    // the join page's six reasons, each an inline drawing hidden from screen readers
    expect(shown).toHaveLength(6);
    for (const s of shown) expect(s).toMatch(/^join\.html .*stroke="currentColor".*aria-hidden="true"/);
    // the press names as text, not images, written once: the marquee's second copy hidden from screen readers
    const home = fillTexts(sitePage(readFileSync(join(root, 'site/index.html'), 'utf8')), en, { es }).html;
    const lists = [...home.matchAll(/<ul class="marquee__list" aria-hidden="(\w+)">([\s\S]*?)<\/ul>/g)];
    expect(lists.map((m) => m[1])).toEqual(['false', 'true']);
    for (const [, , list] of lists)
      expect([...(list as string).matchAll(/<span class="wordmark[^"]*"[^>]*>([^<]+)</g)].map((m) => m[1])).toEqual(
        Object.values(en.site.home.press.outlets),
      );
  });

  it('writes an icon inline where a page names it (expandIcons), and fails the build on a name it does not have', () => {
    const out = expandIcons('<span><!--exp:icon name="cloud"--></span>');
    expect(out).toBe(
      `<span><svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${SITE_ICONS.cloud}</svg></span>`,
    );
    expect(() => expandIcons('<!--exp:icon name="nope"-->')).toThrow(/names no icon: nope/);
  });

  it('writes the frame every page shares once (sitePage): the head, the skip link, the header, main and the footer around the content', () => {
    const out = sitePage(
      '<!--exp:page page="agent" meta="agent" tone="dark" main="plain page-offset" preload="/media/a.webp"-->\n      <p>x</p>\n',
    );
    expect(out).toMatch(
      /^<!doctype html>\n<html lang="en">\n  <head>\n    <title data-i18n="site.meta.agent.title"><\/title>/,
    );
    expect(out).toContain('<meta name="description" data-i18n-attr="content:site.meta.agent.description" />');
    expect(out).toContain('<link rel="preload" as="image" href="/media/a.webp" fetchpriority="high" />');
    expect(out).toContain(
      '<body data-page="agent">\n    <a class="skip-link" href="#main" data-i18n="site.skip"></a>\n    <exp-site-header tone="dark"></exp-site-header>\n    <main id="main" class="plain page-offset">\n      <p>x</p>\n    </main>\n    <exp-site-footer loading="lazy"></exp-site-footer>\n  </body>\n</html>\n',
    );
    // what differs is only what the line says
    const plain = sitePage('<!--exp:page page="home" meta="home"-->\n<p>y</p>');
    expect(plain).toContain('<exp-site-header></exp-site-header>\n    <main id="main">\n<p>y</p>');
    expect(plain).not.toContain('preload');
    expect(sitePage('<p>no frame</p>')).toBe('<p>no frame</p>');
    expect(() => sitePage('<!--exp:page meta="x"-->')).toThrow(/page and meta/);
    expect(sitePage('<!--exp:page page="a&quot;" meta="m" tone="x&quot;y"-->')).toContain('tone="x&amp;quot;y"');
  });

  it('writes a list once (expandEach): items with values, nested blocks, escaped, and a block left open fails the build', () => {
    const out = expandEach(
      '<ul>\n  <!--exp:each g in a b-->\n  <li id="{g}">\n    <!--exp:each x in one=% two=\"&-->\n    <b data-k="{g}.{x}">{x.value}</b>\n    <!--/exp:each x-->\n  </li>\n  <!--/exp:each g-->\n</ul>',
    );
    expect(out).toBe(
      '<ul>\n  <li id="a">\n    <b data-k="a.one">%</b>\n    <b data-k="a.two">&quot;&amp;</b>\n  </li>\n  <li id="b">\n    <b data-k="b.one">%</b>\n    <b data-k="b.two">&quot;&amp;</b>\n  </li>\n</ul>',
    );
    expect(() => expandEach('<!--exp:each a in x-->\n<p></p>\n')).toThrow(/no matching block/);
    expect(() => expandEach('<!--exp:each a in x-->\n<p></p>\n<!--/exp:each b-->\n')).toThrow(/no matching block/);
    // the pages use it, and each list reaches the built page whole
    const about = sitePage(readFileSync(join(root, 'site/about.html'), 'utf8'));
    expect(about.match(/<li class="person">/g)).toHaveLength(3);
    expect(about).toContain(
      'aria-hidden="true">EV</span><div><strong data-i18n="site.about.leadership.international.name">',
    );
    expect(about.match(/data-i18n="site\.about\.features\.(agents|clients)\.(one|two|three|four)"/g)).toHaveLength(8);
  });

  it('writes a section with its heading once (expandSections): the heading labels it, its paragraph with lead, bare without a head, escaped', () => {
    const out = expandSections(
      '  <!--exp:section id="steps" texts="site.join.steps" class="section--subtle" head="center" lead-->\n    <ol></ol>\n  <!--/exp:section-->\n<p>after</p>',
    );
    expect(out).toBe(
      '  <section class="section section--subtle" aria-labelledby="steps-title">\n    <div class="container">\n      <div class="section-head center">\n        <h2 id="steps-title" data-i18n="site.join.steps.heading"></h2>\n        <p data-i18n="site.join.steps.text"></p>\n      </div>\n    <ol></ol>\n    </div>\n  </section>\n<p>after</p>',
    );
    const bare = expandSections(
      '<!--exp:section id="cta" texts="t" anchor="x&quot;" container="split" bare-->\n<a></a>\n<!--/exp:section-->\n',
    );
    expect(bare).toBe(
      '<section class="section" id="x&amp;quot;" aria-labelledby="cta-title">\n  <div class="container split">\n    <h2 id="cta-title" data-i18n="t.heading"></h2>\n<a></a>\n  </div>\n</section>\n',
    );
    expect(() => expandSections('<!--exp:section texts="t"-->\n<!--/exp:section-->\n')).toThrow(/needs id and texts/);
    expect(() => expandSections('<!--exp:section id="a" texts="t"-->\n<p></p>\n')).toThrow(/no matching block/);
    expect(() =>
      expandSections(
        '<!--exp:section id="a" texts="t"-->\n<!--exp:section id="b" texts="t"-->\n<!--/exp:section-->\n<!--/exp:section-->\n',
      ),
    ).toThrow(/holds another section/);
    // the pages use it: every section heading of the join page labels its section
    const joinPage = sitePage(readFileSync(join(root, 'site/join.html'), 'utf8'));
    for (const id of ['reasons', 'steps', 'webinar', 'cta'])
      expect(joinPage).toMatch(
        new RegExp(
          `<section class="section[^"]*"[^>]* aria-labelledby="${id}-title">\\s*<div class="container[^"]*">[\\s\\S]*?<h2 id="${id}-title"`,
        ),
      );
    expect(joinPage).toContain('<section class="section" id="webinar" aria-labelledby="webinar-title">');
  });

  it("writes a hero with its film once (expandHero): poster, title and subtitle from the keys, then the page's own content", () => {
    const out = expandHero(
      '<!--exp:hero video="cuenca" texts="site.join.hero" class="hero--join"-->\n<div class="hero__actions"></div>\n<!--/exp:hero-->\n',
    );
    // the film's poster as an image the preload scanner finds; no <video> in the HTML (site/lib/media.ts makes it)
    expect(out).toContain(
      '<section class="hero hero--join" aria-labelledby="hero-title">\n  <img class="hero__media" data-video="cuenca" src="/media/video/cuenca-poster.webp" alt="" width="960" height="540" fetchpriority="high" />',
    );
    expect(out).not.toContain('<video');
    expect(out).toContain(
      '<h1 id="hero-title" data-i18n="site.join.hero.title"></h1>\n    <p class="hero__subtitle" data-i18n="site.join.hero.subtitle"></p>\n<div class="hero__actions"></div>\n  </div>\n</section>\n',
    );
    expect(() => expandHero('<!--exp:hero video="x"-->\n<!--/exp:hero-->\n')).toThrow(/needs video and texts/);
    expect(() => expandHero('<!--exp:hero video="x" texts="t"-->\n')).toThrow(/no matching block/);
    expect(expandHero('<p>no hero</p>')).toBe('<p>no hero</p>');
  });

  it("writes the search page's own hero (expandSearchHero) between the marks where the server puts a place's, its market link hidden until a place has one", () => {
    const out = expandSearchHero('<main>\n    <!--exp:search-hero-->\n</main>\n');
    const lines = out.split('\n');
    expect(lines[1]).toBe(`    ${SEARCH_HERO_START}`);
    expect(lines.at(-3)).toBe(`    ${SEARCH_HERO_END}`);
    expect(out).toContain('<h1 id="hero-title" data-hero-title data-i18n="site.search.hero.title"></h1>');
    expect(out).toContain('<img class="hero__media" data-video="quito" src="/media/video/quito-poster.webp"');
    expect(out).not.toContain('<video');
    expect(out).toContain(
      '<p class="hero__market" data-hero-market hidden><a href="/market" data-market-link data-i18n="site.search.hero.marketAll"></a></p>',
    );
    expect(expandSearchHero('<p>no hero</p>')).toBe('<p>no hero</p>');
  });

  it('fails the build on a text missing in either language', () => {
    expect(() => fillTexts('<p data-i18n="site.no.such"></p>', en, { es })).toThrow(/site\.no\.such/);
    expect(() => fillTexts('<p data-i18n="only"></p>', { only: 'x' }, { es: {} })).toThrow(/missing/);
  });

  it('takes every external address from the site configuration, in a new tab without opener', () => {
    const out = fillLinks(
      '<a class="btn" data-site-href="external.join" href="http://wrong" target="_self"><span>x</span></a><a data-site-href="email"></a>',
    );
    expect(out).toContain(
      `<a href="${SITE.external.join}" target="_blank" rel="noopener noreferrer" class="btn" data-site-href="external.join">`,
    );
    expect(out).not.toContain('http://wrong');
    expect(out).toContain(`href="mailto:${SITE.email}"`);
    expect(() => fillLinks('<a data-site-href="external.nope"></a>')).toThrow(/external\.nope/);
    // an empty external link with its text's key: the text, then that it opens a new tab; a link to us keeps its key
    expect(fillLinks('<a class="btn" data-site-href="external.join" data-i18n="site.join.cta.join"></a>')).toBe(
      `<a href="${SITE.external.join}" target="_blank" rel="noopener noreferrer" class="btn" data-site-href="external.join"><span data-i18n="site.join.cta.join"></span><span class="sr-only" data-i18n="header.newTab"></span></a>`,
    );
    expect(fillLinks('<a data-site-href="email" data-i18n="k"></a>')).toBe(
      `<a href="mailto:${SITE.email}" data-i18n="k" data-site-href="email"></a>`,
    );
  });

  it('gives each indexed page a canonical address and en/es alternates, Spanish under /es', () => {
    expect(alternateLinks('/join')).toEqual([
      { rel: 'canonical', href: `${SITE.url}/join` },
      { rel: 'alternate', hreflang: 'en', href: `${SITE.url}/join` },
      { rel: 'alternate', hreflang: 'es', href: `${SITE.url}/es/join` },
      { rel: 'alternate', hreflang: 'x-default', href: `${SITE.url}/join` },
    ]);
    expect(alternateLinks('/', 'es', 'http://localhost:8080')[0]).toEqual({
      rel: 'canonical',
      href: 'http://localhost:8080/es',
    });
  });

  it('preloads the chunks of the elements on a page; none for one written loading="lazy"', () => {
    const dir = mkdtempSync(join(tmpdir(), 'exp-manifest-'));
    const file = join(dir, 'manifest.json');
    writeFileSync(
      file,
      JSON.stringify({
        'widgets/site-header/site-header.element.ts': {
          file: 'chunks/site-header.element-1.js',
          imports: ['_runtime.js', '_logo.js'],
          dynamicImports: ['virtual:exp-texts-es/site-header', 'widgets/site-header/menu.tsx'],
        },
        'widgets/site-header/menu.tsx': {
          file: 'chunks/menu-1.js',
          dynamicImports: ['virtual:exp-texts-es/lazy/site-header/menu'],
        },
        'virtual:exp-texts-es/site-header': { file: 'chunks/es-site-header-1.js' },
        'virtual:exp-texts-es/lazy/site-header/menu': { file: 'chunks/es-menu-1.js' },
        'virtual:exp-texts-es/base': { file: 'chunks/es-base-1.js' },
        'widgets/agent-directory/agent-directory.element.ts': {
          file: 'chunks/agent-directory.element-1.js',
          imports: ['_runtime.js'],
        },
        '_runtime.js': { file: 'chunks/runtime-1.js', dynamicImports: ['virtual:exp-texts-es/base'] },
        '_logo.js': { file: 'chunks/logo-1.js', imports: ['_runtime.js'] },
      }),
    );
    expect(widgetPreloads('<exp-site-header tone="dark"></exp-site-header>', file).sort()).toEqual([
      '/widgets/chunks/logo-1.js',
      '/widgets/chunks/runtime-1.js',
      '/widgets/chunks/site-header.element-1.js',
    ]);
    // loading="lazy": its code comes when it nears the view, so the page does not preload it, unless
    // the same element also stands on the page without it
    expect(
      widgetPreloads(
        '<main><exp-agent-directory loading="lazy" lang="es"></exp-agent-directory></main><exp-site-header loading="lazy"></exp-site-header>',
        file,
      ),
    ).toEqual([]);
    expect(
      widgetPreloads(
        '<exp-agent-directory loading="lazy"></exp-agent-directory><exp-agent-directory></exp-agent-directory>',
        file,
      ).sort(),
    ).toEqual(['/widgets/chunks/agent-directory.element-1.js', '/widgets/chunks/runtime-1.js']);
    expect(widgetPreloads('<p>no elements</p>', file)).toEqual([]);
    expect(widgetPreloads('<exp-site-header>', join(dir, 'missing.json'))).toEqual([]);
    // the Spanish texts of the page's elements and of their runtime; a part's come when it loads
    expect(languagePreloads('<exp-site-header></exp-site-header>', file)).toEqual([
      { href: '/widgets/chunks/es-site-header-1.js', lang: 'es' },
      { href: '/widgets/chunks/es-base-1.js', lang: 'es' },
    ]);
    expect(languagePreloads('<exp-agent-directory loading="lazy"></exp-agent-directory>', file)).toEqual([]);
    expect(languagePreloads('<p>no elements</p>', file)).toEqual([]);
    expect(languagePreloads('<exp-site-header>', join(dir, 'missing.json'))).toEqual([]);
  });

  it('inlines a boot script that is valid JavaScript with the error screen in both languages', () => {
    const script = bootScript();
    expect(() => new Function(script)).not.toThrow();
    expect(script).toContain(en.errors.somethingWentWrong);
    expect(script).toContain(es.errors.reloadPage);
  });
});
