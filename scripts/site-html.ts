/**
 * The host site's pages stay plain HTML; at build time every page gets:
 *  - in its head: the visitor's language (?lang= or the saved one) applied before anything renders,
 *    the generic error screen for a page script that fails, the favicon, the widget bundle, the
 *    page script, the canonical address and the en/es alternates;
 *  - its static texts: every `data-i18n="key"` element filled with the English text and every
 *    `data-i18n-attr="attribute:key;..."` attribute set, escaped, from core/locales/en.json (the
 *    page script switches them live to Spanish). A key missing in either language fails the build.
 * And the widget builds drop the site's own texts (the `site` namespace) from their locale files,
 * so partners' pages do not download them.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { alternateLinks } from '../core/alternates.ts';
import { escapeHtml, fillTexts } from '../core/fill.ts';
import { translate, type Dict } from '../core/translate.ts';
import { telHref } from '../core/protocol/format.ts';
import { indexedPathOf, SAME_ORIGIN_PATH } from '../core/routes.ts';
import { SITE } from '../core/site.ts';
import { filmHtml, searchHero, searchHeroHtml } from '../core/search-hero.ts';
import { languagePreloads, widgetPreloads } from './page-preloads.ts';

const LOCALES = resolve(import.meta.dirname, '../core/locales');
const load = (lang: 'en' | 'es') => JSON.parse(readFileSync(resolve(LOCALES, `${lang}.json`), 'utf8')) as Dict;

/** A fact of core/site.ts by its dotted path (`external.join`), when it is a text. */
function siteFact(path: string): string | undefined {
  let node: unknown = SITE;
  for (const part of path.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/**
 * `data-site-href="external.join"` (or `social.instagram`, `email`, `phone`): the address from the
 * site configuration, so no page repeats a URL. External links open in a new tab, without opener.
 */
export function fillLinks(html: string): string {
  return html.replace(
    /<a\b([^>]*?)\sdata-site-href="([^"]+)"([^>]*)>(<\/a>)?/g,
    (_m, before: string, path: string, after: string, closed?: string) => {
      const value = siteFact(path);
      if (!value) throw new Error(`site link "${path}" is not in core/site.ts`);
      const href = path === 'email' ? `mailto:${value}` : path === 'phone' ? telHref(value) : value;
      let attrs = `${before}${after}`.replace(/\s(href|target|rel)="[^"]*"/g, '');
      const external = /^https?:/.test(href);
      // an empty external link with its text's key says its text, then (to screen readers) that it opens a new tab
      const key = closed && external ? /\sdata-i18n="([^"]+)"/.exec(attrs)?.[1] : undefined;
      if (key) attrs = attrs.replace(/\sdata-i18n="[^"]+"/, '');
      const content = key ? `<span data-i18n="${key}"></span>${NEW_TAB}</a>` : (closed ?? '');
      return `<a href="${escapeHtml(href)}"${external ? ' target="_blank" rel="noopener noreferrer"' : ''}${attrs} data-site-href="${path}">${content}`;
    },
  );
}

/** What a link that opens a new tab says to screen readers after its text. */
const NEW_TAB = '<span class="sr-only" data-i18n="header.newTab"></span>';

/**
 * A list written once in a page, its items named on the opening line:
 *   <!--exp:each step in one two three-->
 *     <li><h3 data-i18n="site.join.steps.items.{step}.title"></h3></li>
 *   <!--/exp:each step-->
 * An item may carry a value (`revenue=%`), written where the block says `{step.value}`. Blocks
 * nest when their names differ. A block left open fails the build.
 */
export function expandEach(html: string): string {
  const block =
    /^[ \t]*<!--exp:each ([a-z]+) in ([^>]*?)-->\r?\n([\s\S]*?)^[ \t]*<!--\/exp:each \1-->[ \t]*(?:\r?\n|$)/m;
  let out = html;
  for (let m = block.exec(out); m; m = block.exec(out)) {
    const [all, name, list, body] = m as unknown as [string, string, string, string];
    const items = list
      .trim()
      .split(/\s+/)
      .map((item) => item.split('=', 2) as [string, string | undefined]);
    const expanded = items
      .map(([item, value = '']) =>
        body.replaceAll(`{${name}}`, () => escapeHtml(item)).replaceAll(`{${name}.value}`, () => escapeHtml(value)),
      )
      .join('');
    out = out.slice(0, m.index) + expanded + out.slice(m.index + all.length);
  }
  const open = /<!--\/?exp:each[^>]*-->/.exec(out);
  if (open) throw new Error(`${open[0]} has no matching block`);
  return out;
}

/** The options of a block's opening line: `name="value"` pairs, and flags (`lead`) as empty values. */
function blockOptions(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/([a-z]+)(?:="([^"]*)")?/g)].map(([, name, value = '']) => [name as string, value]),
  );
}

/**
 * A section with its heading, written once: the section, its container and its head around what the
 * page writes inside, the heading labelling the section:
 *   <!--exp:section id="steps" texts="site.join.steps" class="section--subtle" lead-->
 *     <ol>…</ol>
 *   <!--/exp:section-->
 * `id` names the heading (`steps-title`); `texts` the keys of its heading (`….heading`) and, with
 * `lead`, of the paragraph under it (`….text`); `class`, `container` and `head` add classes to the
 * section, its container and its head; `anchor` is the section's own id; `bare` leaves the heading
 * and its paragraph in the container without a head around them. Sections do not nest.
 */
export function expandSections(html: string): string {
  const block = /^([ \t]*)<!--exp:section ([^>]*?)-->\r?\n([\s\S]*?)^[ \t]*<!--\/exp:section-->[ \t]*(?:\r?\n|$)/m;
  let out = html;
  for (let m = block.exec(out); m; m = block.exec(out)) {
    const [all, indent, options, body] = m as unknown as [string, string, string, string];
    const o = blockOptions(options);
    if (!o.id || !o.texts) throw new Error(`<!--exp:section--> needs id and texts: ${options}`);
    if (/<!--exp:section/.test(body)) throw new Error(`<!--exp:section id="${o.id}"--> holds another section`);
    const classes = (...names: Array<string | undefined>) => escapeHtml(names.filter(Boolean).join(' '));
    const title = `${escapeHtml(o.id)}-title`;
    const texts = escapeHtml(o.texts);
    const heading = [
      `<h2 id="${title}" data-i18n="${texts}.heading"></h2>`,
      ...('lead' in o ? [`<p data-i18n="${texts}.text"></p>`] : []),
    ];
    const head =
      'bare' in o
        ? heading.map((line) => `${indent}    ${line}`)
        : [
            `${indent}    <div class="${classes('section-head', o.head)}">`,
            ...heading.map((line) => `${indent}      ${line}`),
            `${indent}    </div>`,
          ];
    const opening = [
      `${indent}<section class="${classes('section', o.class)}"${o.anchor ? ` id="${escapeHtml(o.anchor)}"` : ''} aria-labelledby="${title}">`,
      `${indent}  <div class="${classes('container', o.container)}">`,
      ...head,
    ];
    out =
      out.slice(0, m.index) +
      [...opening, body.replace(/\s+$/, ''), `${indent}  </div>`, `${indent}</section>`, ''].join('\n') +
      out.slice(m.index + all.length);
  }
  const open = /<!--\/?exp:section[^>]*-->/.exec(out);
  if (open) throw new Error(`${open[0]} has no matching block`);
  return out;
}

/**
 * A page's hero with its film, written once: the film (its poster first; site.ts plays it), the title
 * and the subtitle from `texts` (`….title`, `….subtitle`), then what the page writes inside:
 *   <!--exp:hero video="cuenca" texts="site.join.hero" class="hero--animated hero--join"-->
 *     <div class="hero__actions">…</div>
 *   <!--/exp:hero-->
 */
export function expandHero(html: string): string {
  const m = /^([ \t]*)<!--exp:hero ([^>]*?)-->\r?\n([\s\S]*?)^[ \t]*<!--\/exp:hero-->[ \t]*(?:\r?\n|$)/m.exec(html);
  if (!m) {
    if (/<!--\/?exp:hero/.test(html)) throw new Error('<!--exp:hero--> has no matching block');
    return html;
  }
  const [all, indent, options, body] = m as unknown as [string, string, string, string];
  const o = Object.fromEntries(Object.entries(blockOptions(options)).map(([name, value]) => [name, escapeHtml(value)]));
  if (!o.video || !o.texts) throw new Error(`<!--exp:hero--> needs video and texts: ${options}`);
  const lines = [
    `<section class="hero${o.class ? ` ${o.class}` : ''}" aria-labelledby="hero-title">`,
    `  ${filmHtml(o.video)}`,
    '  <div class="hero__content">',
    `    <h1 id="hero-title" data-i18n="${o.texts}.title"></h1>`,
    `    <p class="hero__subtitle" data-i18n="${o.texts}.subtitle"></p>`,
  ].map((line) => indent + line);
  return (
    html.slice(0, m.index) +
    [...lines, body.replace(/\s+$/, ''), `${indent}  </div>`, `${indent}</section>`, ''].join('\n') +
    html.slice(m.index + all.length)
  );
}

/** A section's film lower on a page (core/search-hero.ts filmHtml): `<!--exp:film video="coast"-->` on a line of its own. */
export function expandFilm(html: string): string {
  return html.replace(
    /^([ \t]*)<!--exp:film video="([a-z-]+)"-->[ \t]*$/gm,
    (_m, indent: string, video: string) => indent + filmHtml(video, 'below'),
  );
}

/**
 * The site's drawn icons (24 px, stroked in the text's colour), written into the page as inline SVG
 * where a page says `<!--exp:icon name="cloud"-->`: not an SVG image (a CSS mask or an `<img>`),
 * which the browser makes a document of its own for (docs/benchmarks.md, "Measured apart").
 */
export const SITE_ICONS: Readonly<Record<string, string>> = {
  revenue: '<circle cx="7" cy="7" r="2.5"/><circle cx="17" cy="17" r="2.5"/><path d="M19 5 5 19"/>',
  ownership: '<path d="M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3l-5.6 2.9 1.1-6.2L3 9.6l6.2-.9z"/>',
  cloud: '<path d="M7 18h10a4 4 0 0 0 .6-7.95A6 6 0 0 0 6.1 9.5 4.25 4.25 0 0 0 7 18z"/>',
  referrals: '<path d="M4 8h14M14 4l4 4-4 4M20 16H6M10 12l-4 4 4 4"/>',
  training: '<path d="M4 20h4L19 9l-4-4L4 16z"/><path d="M13.5 6.5l4 4"/>',
  tools:
    '<path d="M15 4.5a4.5 4.5 0 0 0-5.6 5.6L3.5 16a1.8 1.8 0 0 0 2.5 2.5l5.9-5.9a4.5 4.5 0 0 0 5.6-5.6l-2.6 2.6-2.3-.3-.3-2.3z"/>',
};

/** Each `<!--exp:icon name="…"-->` of a page as its inline SVG, hidden from screen readers; a name not in SITE_ICONS fails the build. */
export function expandIcons(html: string): string {
  return html.replace(/<!--exp:icon name="([a-z-]+)"-->/g, (_m, name: string) => {
    const shapes = SITE_ICONS[name];
    if (!shapes) throw new Error(`<!--exp:icon--> names no icon: ${name}`);
    return `<svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${shapes}</svg>`;
  });
}

/**
 * The search page's hero as core/search-hero.ts describes it with no place (the server writes a
 * place's in its stead): `<!--exp:search-hero-->` on a line of its own.
 */
export function expandSearchHero(html: string): string {
  return html.replace(/^([ \t]*)<!--exp:search-hero-->[ \t]*$/m, (_m, indent: string) =>
    searchHeroHtml(searchHero({}))
      .split('\n')
      .map((line) => indent + line)
      .join('\n'),
  );
}

/**
 * The frame every page of the site shares, written once: a page file starts with one line that
 * names what differs, and holds only its `<main>`'s content:
 *   <!--exp:page page="agent" meta="agent" tone="dark" main="plain page-offset" preload="/media/x.webp"-->
 * `page` is the body's data-page (site.ts), `meta` the group of its title and description under
 * site.meta, `tone` the header's, `main` the main's classes, `preload` an image the first paint
 * needs. The hero (expandHero, expandSearchHero), a section's film (expandFilm), sections with their heading (expandSections), lists (expandEach) and icons (expandIcons)
 * in the content are written once. A file without the line is left as it is.
 */
export function sitePage(source: string): string {
  const m = /^\s*<!--exp:page ([^>]*?)-->\r?\n?/.exec(source);
  if (!m) return source;
  const o = blockOptions(m[1] as string);
  if (!o.page || !o.meta) throw new Error(`<!--exp:page--> needs page and meta: ${m[0]}`);
  const attr = (name: string, value: string | undefined) => (value ? ` ${name}="${escapeHtml(value)}"` : '');
  const content = expandIcons(
    expandEach(expandSections(expandHero(expandFilm(expandSearchHero(source.slice(m[0].length)))))),
  ).replace(/\s+$/, '');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    `    <title data-i18n="site.meta.${escapeHtml(o.meta)}.title"></title>`,
    `    <meta name="description" data-i18n-attr="content:site.meta.${escapeHtml(o.meta)}.description" />`,
    ...(o.preload
      ? [`    <link rel="preload" as="image" href="${escapeHtml(o.preload)}" fetchpriority="high" />`]
      : []),
    '  </head>',
    `  <body data-page="${escapeHtml(o.page)}">`,
    '    <a class="skip-link" href="#main" data-i18n="site.skip"></a>',
    `    <exp-site-header${attr('tone', o.tone)}></exp-site-header>`,
    `    <main id="main"${attr('class', o.main)}>`,
    content,
    '    </main>',
    '    <exp-site-footer loading="lazy"></exp-site-footer>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * What every page's head has, so the pages only say their own title and description: charset and
 * viewport first, the theme colour, and Open Graph title and description from the page's keys.
 */
export function withHeadBasics(html: string): string {
  const title = /<title data-i18n="([^"]+)"/.exec(html)?.[1];
  const description = /<meta name="description" data-i18n-attr="content:([^"]+)"/.exec(html)?.[1];
  const tags = [
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    '<meta name="theme-color" content="#0b2340" />',
    '<meta property="og:type" content="website" />',
    `<meta property="og:site_name" content="${escapeHtml(SITE.name)}" />`,
    ...(title ? [`<meta property="og:title" data-i18n-attr="content:${title}" />`] : []),
    ...(description ? [`<meta property="og:description" data-i18n-attr="content:${description}" />`] : []),
  ];
  return html.replace(/<head>\s*/, () => `<head>\n    ${tags.join('\n    ')}\n    `);
}

export { alternateLinks };

/**
 * Runs first in every page's head. A visitor who chose a language with the switch is taken to the
 * page's address in that language (docs/decisions.md #18; crawlers keep no choice, so they read
 * each address as it is): the address the server wrote as the page's twin (`<html data-exp-twin>`,
 * made by the one language-path rule, site-urls.ts), followed only when it is a path on this origin
 * (docs/decisions.md #24). Shows the generic error screen
 * (docs/product.md §2) when one of our own scripts fails to load or throws. Texts in both languages are
 * inlined, since the failing script may be the one that would translate them. The screen's styles
 * are set through the style object: a `style` attribute is inline style, which the page's own
 * Content-Security-Policy refuses (docs/architecture.md "Security headers").
 */
export function bootScript(): string {
  const en = load('en');
  const es = load('es');
  const strings = Object.fromEntries(
    (['en', 'es'] as const).map((lang) => {
      const d = lang === 'en' ? en : es;
      return [
        lang,
        ['errors.somethingWentWrong', 'errors.unexpected', 'errors.reloadPage'].map((k) => translate(d, k, {}, lang)),
      ];
    }),
  );
  return `(function(){var d=document,h=d.documentElement;
try{var L=localStorage.getItem('exp-lang'),T=h.getAttribute('data-exp-twin');
if((L==='en'||L==='es')&&L!==h.lang&&T&&${SAME_ORIGIN_PATH}.test(T)&&new URL(T,location.href).origin===location.origin){location.replace(T+location.search+location.hash)}}catch(e){}
var S=${JSON.stringify(strings)};
function ours(u){try{var x=new URL(u,location.href);return x.origin===location.origin&&/^\\/(assets|widgets)\\//.test(x.pathname)}catch(e){return false}}
function show(){if(d.getElementById('exp-error-screen')||!d.body){return}var t=S[h.lang==='es'?'es':'en'];var w=d.createElement('div');w.id='exp-error-screen';w.setAttribute('role','alertdialog');w.setAttribute('aria-labelledby','exp-error-title');w.style.cssText='position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;padding:24px;background:#f8fafc;color:#0f172a;font:16px/1.5 system-ui,sans-serif;text-align:center';var b=d.createElement('div');var h1=d.createElement('h1');h1.id='exp-error-title';h1.textContent=t[0];h1.style.cssText='margin:0 0 8px;font-size:28px';var p=d.createElement('p');p.textContent=t[1];p.style.cssText='margin:0 0 20px;color:#475569';var r=d.createElement('button');r.type='button';r.textContent=t[2];r.style.cssText='font:inherit;font-weight:600;padding:12px 24px;border:0;border-radius:999px;background:#123c69;color:#fff;cursor:pointer';r.onclick=function(){location.reload()};b.appendChild(h1);b.appendChild(p);b.appendChild(r);w.appendChild(b);d.body.appendChild(w);r.focus()}
function later(){if(d.body){show()}else{d.addEventListener('DOMContentLoaded',show)}}
addEventListener('error',function(e){var t=e.target;if(t&&t.tagName==='SCRIPT'&&t.src&&ours(t.src)){later()}else if(e instanceof ErrorEvent&&e.filename&&ours(e.filename)){later()}},true);
})();`;
}

export function siteHead(): Plugin {
  return {
    name: 'exp-site-head',
    transformIndexHtml: {
      order: 'pre',
      handler(html, ctx) {
        const page = basename(ctx.filename, '.html');
        const en = load('en');
        const es = load('es');
        html = sitePage(html);
        const filled = fillTexts(fillLinks(withHeadBasics(html)), en, { es }).html;
        // the public address of the page (for the canonical link and the alternates); none: set at run time or not indexed
        const route = indexedPathOf(page);
        const tags = [
          { tag: 'script', children: bootScript(), injectTo: 'head' as const },
          {
            tag: 'link',
            attrs: { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
            injectTo: 'head' as const,
          },
          ...(route
            ? alternateLinks(route).map((attrs) => ({ tag: 'link', attrs, injectTo: 'head' as const }))
            : [
                {
                  tag: 'meta',
                  attrs: {
                    name: 'robots',
                    content: page === 'agent' || page === 'market' || page === 'project' ? 'index,follow' : 'noindex',
                  },
                  injectTo: 'head' as const,
                },
              ]),
          {
            tag: 'script',
            attrs: { type: 'module', src: '/widgets/exp-widgets.js', 'vite-ignore': '' },
            injectTo: 'head' as const,
          },
          ...(ctx.server ? [] : widgetPreloads(html)).map((href) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', href, fetchpriority: 'low', 'vite-ignore': '' },
            injectTo: 'head' as const,
          })),
          ...(ctx.server ? [] : languagePreloads(html)).map(({ href, lang }) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', href, fetchpriority: 'low', 'data-exp-lang': lang, 'vite-ignore': '' },
            injectTo: 'head' as const,
          })),
          { tag: 'script', attrs: { type: 'module', src: '/site.ts' }, injectTo: 'head' as const },
        ];
        return { html: filled, tags };
      },
    },
    generateBundle() {
      // every text, for the pages the server renders in each language (server/pages/texts.ts); the
      // sitemaps and robots.txt are the server's too (they list the data's listings)
      for (const lang of ['en', 'es'] as const)
        this.emitFile({ type: 'asset', fileName: `texts/${lang}.json`, source: JSON.stringify(load(lang)) });
    },
  };
}

/**
 * The site's stylesheet written into each page's head instead of linked: a linked stylesheet blocks
 * the first paint until it arrives, and on a phone's connection it shares the line with the
 * element chunks the page preloads (about 4 KB gzip, so every page carries it; docs/architecture.md).
 */
export function inlineSiteCss(): Plugin {
  return {
    name: 'exp-inline-site-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        return html.replace(/<link rel="stylesheet"[^>]*?href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = ctx.bundle?.[file];
          if (!asset || asset.type !== 'asset') return tag;
          const css = String(typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source));
          return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`;
        });
      },
    },
  };
}
