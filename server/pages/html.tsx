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
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** An agent's e-mail and phone as list items of mailto: and tel: links. */
export function ContactItems({ email, phone }: { email: string | null | undefined; phone: string | null | undefined }) {
  return (
    <>
      {email ? (
        <li>
          <a href={`mailto:${email}`}>{email}</a>
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
