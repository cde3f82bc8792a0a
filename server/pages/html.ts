/** Writing HTML from data: every value escaped (JSON in scripts: protocol/structured-data.ts jsonLdText). */
import { photoSources } from '../../core/protocol/photos.ts';
import { escapeHtml } from '../../core/fill.ts';
import { telHref, telText } from '../../core/protocol/format.ts';

/** An attribute list: `name="value"` pairs, escaped, skipping undefined and false. */
export function attrs(values: Record<string, string | number | boolean | undefined | null>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${escapeHtml(v)}"`))
    .join('');
}

/** A text for a meta description: one line, at most `max` characters, cut at a word with an ellipsis. */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** An agent's e-mail and phone as list items of mailto: and tel: links. */
export function contactItems(email: string | null | undefined, phone: string | null | undefined): string {
  return `${email ? `<li><a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a></li>` : ''}${phone ? `<li><a href="${escapeHtml(telHref(phone))}">${escapeHtml(telText(phone))}</a></li>` : ''}`;
}

/**
 * A listing's photo as HTML: a re-hosted one (core/protocol/photos.ts) in every width and format
 * (`<picture>`, AVIF and WebP first) with the `sizes` of where it is shown; any other as it is.
 */
export function photoHtml(src: string, sizes: string, img: Record<string, string | number | boolean | undefined | null>): string {
  const set = photoSources(src);
  if (!set) return `<img${attrs({ src, ...img })} />`;
  return `<picture>${set.sources.map((s) => `<source${attrs({ type: s.type, srcset: s.srcset, sizes })} />`).join('')}<img${attrs({ src: set.src, srcset: set.srcset, sizes, ...img })} /></picture>`;
}
