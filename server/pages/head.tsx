/**
 * A built page made into the page of one address and one language: `<html lang>`, its texts in that
 * language, and the head a crawler and a link preview read (title, description, canonical and
 * hreflang alternates, Open Graph with locale and image, the Twitter card, JSON-LD, robots).
 */
import { fillTexts } from '../../core/fill.ts';
import { alternateLinks } from '../../core/alternates.ts';
import { jsonLdText } from '../../core/protocol/structured-data.ts';
import { localizedPath, sameOriginPath, splitLangPath } from '../../core/routes.ts';
import { DEFAULT_LANG } from '../../core/lang.ts';
import { isSitePage } from './page-match.ts';
import { markup } from './html.tsx';
import { attrs } from '../../core/protocol/html.ts';
import type { Dict } from './texts.ts';
import type { Lang } from '../../core/lang.ts';

const OG_LOCALE: Record<Lang, string> = { en: 'en_US', es: 'es_EC' };

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
  /** what of the address its canonical and alternates keep: a later page of a list ('?page=2') */
  query?: string;
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
  /** head tags the page's content asks for (React's preloads of its first photo: html.tsx renderBody) */
  hoisted?: string;
}

/** A head tag with this attribute, whatever the order of its attributes. */
const tag = (name: string, attr: string, value: string) =>
  new RegExp(`\\s*<${name}\\b[^>]*\\b${attr}="${value}"[^>]*>`, 'g');

/** Where the page's title goes in a prepared template (data is escaped, so it never holds this). */
const TITLE_SLOT = '<!--exp:title-->';

/** Which of the head's fields a page gives: what its template's preparation depends on. */
export interface HeadShape {
  title: boolean;
  description: boolean;
  ogType: boolean;
}

export const shapeOf = (info: HeadInfo): HeadShape => ({
  title: info.title !== undefined,
  description: info.description !== undefined,
  ogType: Boolean(info.ogType),
});

/** Removes the tags a rendered page replaces, and the preloads of another language's texts. */
function strip(html: string, lang: Lang, shape: HeadShape): string {
  let out = html
    .replace(tag('link', 'rel', '(?:canonical|alternate)'), '')
    .replace(tag('meta', 'name', 'robots'), '')
    .replace(tag('link', 'data-exp-lang', `(?!${lang}")[a-z]{2}`), '');
  if (shape.title)
    out = out
      .replace(/<title[^>]*>[^<]*<\/title>/, () => `<title>${TITLE_SLOT}</title>`)
      .replace(tag('meta', 'property', 'og:title'), '');
  if (shape.description)
    out = out.replace(tag('meta', 'name', 'description'), '').replace(tag('meta', 'property', 'og:description'), '');
  if (shape.ogType) out = out.replace(tag('meta', 'property', 'og:type'), '');
  return out;
}

/**
 * What of a page's head depends only on its template, its language and its head's shape: the
 * texts filled and the tags it replaces taken out (the bulk of the work, over the whole template),
 * so a server can keep it per template (page-kit.ts) and finish each page with finishHead().
 */
export function prepareTemplate(html: string, lang: Lang, dict: Dict, shape: HeadShape): string {
  return strip(localizeLinks(fillTexts(html, dict, undefined, lang).html, lang), lang, shape);
}

/**
 * The page's own links in its language (docs/decisions.md #18): a link or a form of the built page
 * to one of the site's pages goes to that page's address in `lang` (/es/... on a Spanish page), so a
 * visitor who came to a Spanish address stays in Spanish without having chosen it with the switch.
 * Files (assets, media, previews) and addresses that are no page of the site are left as they are.
 */
function localizeLinks(html: string, lang: Lang): string {
  if (lang === DEFAULT_LANG) return html;
  return html.replace(
    /(<(?:a|form)\b[^>]*?\s(?:href|action)=")(\/[^"]*)"/g,
    (whole, before: string, target: string) => {
      const path = /^[^?#]*/.exec(target)?.[0] ?? target;
      if (splitLangPath(path).lang !== DEFAULT_LANG || !isSitePage(path)) return whole;
      return `${before}${localizedPath(path, lang)}${target.slice(path.length)}"`;
    },
  );
}

/** The head tags of one page: description, Open Graph and Twitter card, alternates, robots, JSON-LD. */
function HeadTags({ info, lang, origin }: { info: HeadInfo; lang: Lang; origin: string }) {
  const title = info.socialTitle ?? info.title;
  const links = info.route ? alternateLinks(info.route, lang, origin, info.query) : [];
  const image = info.image;
  return (
    <>
      {info.description !== undefined ? (
        <>
          <meta name="description" content={info.description} />
          <meta property="og:description" content={info.description} />
        </>
      ) : null}
      {title !== undefined ? <meta property="og:title" content={title} /> : null}
      {info.ogType ? <meta property="og:type" content={info.ogType} /> : null}
      {info.robots !== undefined ? <meta name="robots" content={info.robots} /> : null}
      {links.map((link) => (
        <link key={link.href + (link.hreflang ?? '')} rel={link.rel} hrefLang={link.hreflang} href={link.href} />
      ))}
      {info.route ? <meta property="og:url" content={links[0]?.href ?? ''} /> : null}
      <meta property="og:locale" content={OG_LOCALE[lang]} />
      <meta property="og:locale:alternate" content={OG_LOCALE[lang === 'es' ? 'en' : 'es']} />
      {image ? (
        <>
          <meta property="og:image" content={image.url} />
          <meta property="og:image:type" content={image.type ?? 'image/jpeg'} />
          <meta property="og:image:width" content={String(image.width)} />
          <meta property="og:image:height" content={String(image.height)} />
          <meta property="og:image:alt" content={image.alt} />
          <meta name="twitter:card" content="summary_large_image" />
          <meta name="twitter:image" content={image.url} />
          <meta name="twitter:image:alt" content={image.alt} />
          {title !== undefined ? <meta name="twitter:title" content={title} /> : null}
          {info.description !== undefined ? <meta name="twitter:description" content={info.description} /> : null}
        </>
      ) : null}
      {(info.jsonLd ?? []).map((data, i) => (
        <script key={i} type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(data) }} />
      ))}
    </>
  );
}

/** A prepared template made the page of one address: its language, title and head tags. */
export function finishHead(prepared: string, lang: Lang, origin: string, info: HeadInfo): string {
  const twin = info.twin ? attrs({ 'data-exp-twin': sameOriginPath(info.twin) }) : '';
  let out = prepared.replace(/<html lang="[^"]*"/, () => `<html lang="${lang}"${twin}`);
  if (info.title !== undefined) out = out.replace(TITLE_SLOT, () => markup(info.title));
  // one tag a line, as the templates write them
  const tags = `${info.hoisted ?? ''}${markup(<HeadTags info={info} lang={lang} origin={origin} />)}`.replace(
    /><(?=[a-z])/g,
    '>\n    <',
  );
  // a function replacer: the tags hold data (titles, descriptions), never a replacement pattern
  return out.replace(/\s*<\/head>/, () => `\n    ${tags}\n  </head>`);
}
