/**
 * Text a narrow box wraps where a reader expects it, not in the middle of a word: a line-break
 * opportunity (`<wbr>`) at each zero-width position `at` matches, the text itself unchanged. With
 * `overflow-wrap: anywhere` beside it, a part still too long for its line breaks anywhere, but only
 * then.
 */
import { Fragment, type ReactNode } from 'react';

export function withBreaks(text: string, at: RegExp): ReactNode {
  const parts = text.split(at);
  return parts.length === 1
    ? text
    : parts.map((part, i) => (
        <Fragment key={i}>
          {i ? <wbr /> : null}
          {part}
        </Fragment>
      ));
}

/** "$122/month" after its slash. */
export const AFTER_SLASH = /(?<=\/)/;
/** an e-mail address after its "@": "miguel.penaherrera@" / "expecuador.example" */
export const EMAIL_BREAKS = /(?<=@)/;
