/**
 * A built page made into the page of one address and one language: `<html lang>`, its texts in that
 * language, and the head a crawler and a link preview read (title, description, canonical and
 * hreflang alternates, Open Graph with locale and image, the Twitter card, JSON-LD, robots).
 */
import { fillTexts } from '../../core/fill.ts';
import { alternateLinks } from '../../core/alternates.ts';
import { jsonLdText } from '../../core/protocol/structured-data.ts';
import { sameOriginPath } from '../../core/routes.ts';
import { escapeHtml } from '../../core/fill.ts';
import { attrs } from './html.ts';
import type { Dict } from './texts.ts';
import type { Lang } from '../../core/lang.ts';

export const OG_LOCALE: Record<Lang, string> = { en: 'en_US', es: 'es_EC' };

export interface OgImage {
  url: string;
  width: number;
  height: number;
  alt: string;
  type?: string;
}

export interface HeadInfo {
  /** the page's route without its language ('/about', '/properties/12-casa'); none: not indexed */
  route?: string;
  /** replaces the page's own title (and og:title), written as text */
  title?: string;
  /** og:title and twitter:title when they say more than the title (a title fits 70 characters; a preview's may not) */
  socialTitle?: string;
  description?: string;
  ogType?: string;
  image?: OgImage;
  jsonLd?: unknown[];
  /** 'noindex' for pages that are not content (404, the shared page) */
  robots?: string;
  /** the page's address in the other language, where the boot script takes a visitor who chose it */
  twin?: string;
}

/** A head tag with this attribute, whatever the order of its attributes. */
const tag = (name: string, attr: string, value: string) => new RegExp(`\\s*<${name}\\b[^>]*\\b${attr}="${value}"[^>]*>`, 'g');

/** Where the page's title goes in a prepared template (data is escaped, so it never holds this). */
const TITLE_SLOT = '<!--exp:title-->';

/** Which of the head's fields a page gives: what its template's preparation depends on. */
export interface HeadShape {
  title: boolean;
  description: boolean;
  ogType: boolean;
}

export const shapeOf = (info: HeadInfo): HeadShape => ({ title: info.title !== undefined, description: info.description !== undefined, ogType: Boolean(info.ogType) });

/** Removes the tags a rendered page replaces, and the preloads of another language's texts. */
function strip(html: string, lang: Lang, shape: HeadShape): string {
  let out = html
    .replace(tag('link', 'rel', '(?:canonical|alternate)'), '')
    .replace(tag('meta', 'name', 'robots'), '')
    .replace(tag('link', 'data-exp-lang', `(?!${lang}")[a-z]{2}`), '');
  if (shape.title) out = out.replace(/<title[^>]*>[^<]*<\/title>/, () => `<title>${TITLE_SLOT}</title>`).replace(tag('meta', 'property', 'og:title'), '');
  if (shape.description) out = out.replace(tag('meta', 'name', 'description'), '').replace(tag('meta', 'property', 'og:description'), '');
  if (shape.ogType) out = out.replace(tag('meta', 'property', 'og:type'), '');
  return out;
}

/**
 * What of a page's head depends only on its template, its language and its head's shape: the
 * texts filled and the tags it replaces taken out (the bulk of the work, over the whole template),
 * so a server can keep it per template (page-kit.ts) and finish each page with finishHead().
 */
export function prepareTemplate(html: string, lang: Lang, dict: Dict, shape: HeadShape): string {
  return strip(fillTexts(html, dict, undefined, lang).html, lang, shape);
}

/** A prepared template made the page of one address: its language, title and head tags. */
export function finishHead(prepared: string, lang: Lang, origin: string, info: HeadInfo): string {
  const twin = info.twin ? attrs({ 'data-exp-twin': sameOriginPath(info.twin) }) : '';
  let out = prepared.replace(/<html lang="[^"]*"/, () => `<html lang="${lang}"${twin}`);
  if (info.title !== undefined) out = out.replace(TITLE_SLOT, () => escapeHtml(info.title as string));
  const meta = (property: string, content: string | number) => `<meta${attrs({ property, content })} />`;
  const tags: string[] = [];
  if (info.description !== undefined) tags.push(`<meta${attrs({ name: 'description', content: info.description })} />`, meta('og:description', info.description));
  if (info.title !== undefined) tags.push(meta('og:title', info.socialTitle ?? info.title));
  if (info.ogType) tags.push(meta('og:type', info.ogType));
  if (info.robots !== undefined) tags.push(`<meta${attrs({ name: 'robots', content: info.robots })} />`);
  if (info.route) {
    const links = alternateLinks(info.route, lang, origin);
    for (const link of links) tags.push(`<link${attrs({ rel: link.rel, hreflang: link.hreflang, href: link.href })} />`);
    tags.push(meta('og:url', links[0]?.href ?? ''));
  }
  tags.push(meta('og:locale', OG_LOCALE[lang]), meta('og:locale:alternate', OG_LOCALE[lang === 'es' ? 'en' : 'es']));
  if (info.image) {
    const i = info.image;
    tags.push(meta('og:image', i.url), meta('og:image:type', i.type ?? 'image/jpeg'), meta('og:image:width', i.width), meta('og:image:height', i.height), meta('og:image:alt', i.alt));
    tags.push(`<meta${attrs({ name: 'twitter:card', content: 'summary_large_image' })} />`, `<meta${attrs({ name: 'twitter:image', content: i.url })} />`, `<meta${attrs({ name: 'twitter:image:alt', content: i.alt })} />`);
    if (info.title !== undefined) tags.push(`<meta${attrs({ name: 'twitter:title', content: info.socialTitle ?? info.title })} />`);
    if (info.description !== undefined) tags.push(`<meta${attrs({ name: 'twitter:description', content: info.description })} />`);
  }
  for (const data of info.jsonLd ?? []) tags.push(`<script type="application/ld+json">${jsonLdText(data)}</script>`);
  // a function replacer: the tags hold data (titles, descriptions), never a replacement pattern
  return out.replace(/\s*<\/head>/, () => `\n    ${tags.join('\n    ')}\n  </head>`);
}
