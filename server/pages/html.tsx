/**
 * Writing HTML from data (docs/architecture.md, "Pages"): the pages' parts are React components
 * rendered to static markup (react-dom/server), so every value is escaped by React; JSON in scripts
 * goes through core/protocol/structured-data.ts jsonLdText; attributes set on a tag of a prepared
 * template through core/protocol/html.ts `attrs`, which escapes them.
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { telHref, telText } from '../../core/protocol/format.ts';
import { photoSources } from '../../core/protocol/photos.ts';
import { jsonLdText } from '../../core/protocol/structured-data.ts';
import { EMAIL_BREAKS, withBreaks } from '../../core/view/line-breaks.tsx';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      // the elements that take over the server's content once the script runs (widgets/)
      'exp-property-detail': { 'listing-id': string; 'show-similar'?: 'true' | 'false'; children?: ReactNode };
      'exp-agent-profile': { 'agent-id': string; children?: ReactNode };
    }
  }
}

/** A part of a page as HTML. */
export const markup = (node: ReactNode): string => renderToStaticMarkup(node);

/** A text for a meta description: one line, at most `max` characters, cut at a word with an ellipsis. */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  // cut at a word, and without the comma or dash it ends on ("Iñaquito…", not "Iñaquito,…")
  return `${flat
    .slice(0, max - 1)
    .replace(/\s+\S*$/, '')
    .replace(/[\s,;:–—-]+$/, '')}…`;
}

/** What a search engine shows of a title: 70 characters as the page's source writes them (html-validate's long-title). */
const MAX_TITLE = 70;

/**
 * A page's title that a search result shows whole: `long(text)` (with the site's name) when it fits,
 * else `short(text)` (without it: a search result names the site anyway), else `short` around `text`
 * cut at a word (…) until it fits.
 */
export function fitTitle(text: string, long: (text: string) => string, short: (text: string) => string): string {
  const fits = (title: string) => markup(title).length <= MAX_TITLE;
  if (fits(long(text))) return long(text);
  let title = short(text);
  for (let max = text.length - 1; !fits(title) && max > 8; max -= 4) title = short(excerpt(text, max));
  return title;
}

/** An agent's e-mail and phone as list items of mailto: and tel: links. */
export function ContactItems({ email, phone }: { email: string | null | undefined; phone: string | null | undefined }) {
  return (
    <>
      {email ? (
        <li>
          <a href={`mailto:${email}`}>{withBreaks(email, EMAIL_BREAKS)}</a>
        </li>
      ) : null}
      {phone ? (
        <li>
          <a href={telHref(phone)}>{telText(phone)}</a>
        </li>
      ) : null}
    </>
  );
}

type ImgProps = Omit<React.ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'sizes'>;

/**
 * A listing's photo: a re-hosted one (core/protocol/photos.ts) in every width and format
 * (`<picture>`, AVIF and WebP first) with the `sizes` of where it is shown; any other as it is.
 */
export function Photo({ src, sizes, ...img }: { src: string; sizes: string } & ImgProps) {
  const set = photoSources(src);
  if (!set) return <img src={src} {...img} />;
  return (
    <picture>
      {set.sources.map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcset} sizes={sizes} />
      ))}
      <img src={set.src} srcSet={set.srcset} sizes={sizes} {...img} />
    </picture>
  );
}

/**
 * What a page carries for one of its elements to start from (widgets/lib/page-answer.ts reads it): a
 * JSON script with the element's mark, written safely inside a script (jsonLdText).
 */
export function PageAnswer({ mark, value }: { mark: string; value: unknown }) {
  return <script type="application/json" {...{ [mark]: '' }} dangerouslySetInnerHTML={{ __html: jsonLdText(value) }} />;
}

/**
 * A page's content as HTML, and the head tags React hoists out of it to its start (the preload of
 * a first photo that is not lazy), which belong in the page's head (head.tsx HeadInfo.hoisted).
 */
export function renderBody(node: ReactNode): { body: string; hoisted: string } {
  // a chosen option as HTML writes a boolean attribute (React writes `selected=""`; text is escaped, so never holds it)
  const html = renderToStaticMarkup(node).replaceAll(' selected=""', ' selected');
  const hoisted = /^(?:<link\b[^>]*>)*/.exec(html)?.[0] ?? '';
  return { body: html.slice(hoisted.length), hoisted };
}
