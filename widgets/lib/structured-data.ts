/**
 * schema.org JSON-LD for what an element shows (the builders: core/protocol/
 * structured-data.ts), written as a `<script type="application/ld+json">` child of the element's
 * host, in the light DOM where search engines read it. Only when the page asks for it
 * (`structured-data="true"`): the builders are loaded then, so other pages never download them.
 * Removed with the element or when the data goes away.
 */
import { useEffect, useRef } from 'react';
import type * as StructuredData from '../../core/protocol/structured-data.ts';
import { STRUCTURED_DATA_MARK as MARK } from '../../core/protocol/structured-data-mark.ts';

export type Builders = typeof StructuredData;

const loadBuilders = () => import('../../core/protocol/structured-data.ts');

/** Writes `data` (made by one of the builders) as the host's JSON-LD, or removes it (null). */
export function writeStructuredData(host: HTMLElement, data: unknown, builders?: Pick<Builders, 'jsonLdText'>): void {
  let script = [...host.children].find((c) => c.hasAttribute(MARK)) as HTMLScriptElement | undefined;
  if (data == null || !builders) {
    script?.remove();
    return;
  }
  if (!script) {
    script = document.createElement('script');
    script.type = 'application/ld+json';
    script.setAttribute(MARK, '');
    host.append(script);
  }
  const text = builders.jsonLdText(data);
  if (script.textContent !== text) script.textContent = text;
}

/**
 * Keeps the host's JSON-LD to what `make` builds (null: none), while `enabled`. `make` should be
 * memoised: a new one writes again. What is written stays as it is while what is shown is still
 * `loading`, and while it is the answer the page's HTML came with (`asServed`): the server wrote its
 * JSON-LD beside it with the same builders (server/pages/search-results.tsx), so the element
 * neither downloads them nor makes it again, until it has written once (a later return to the same
 * rows is written like any other).
 */
export function useStructuredData(
  host: HTMLElement,
  enabled: boolean,
  make: (builders: Builders) => unknown,
  shown: { loading?: boolean; asServed?: boolean } = {},
): void {
  const served = useRef(true);
  const { loading = false, asServed = false } = shown;
  useEffect(() => {
    if (!enabled) {
      writeStructuredData(host, null);
      served.current = false;
      return;
    }
    if (loading || (asServed && served.current && [...host.children].some((c) => c.hasAttribute(MARK)))) return;
    let live = true;
    loadBuilders()
      .then((builders) => {
        if (!live) return;
        served.current = false;
        writeStructuredData(host, make(builders), builders);
      })
      .catch((error: unknown) => console.error('[exp] structured data:', error));
    return () => {
      live = false;
    };
  }, [host, enabled, make, loading, asServed]);
  useEffect(() => () => writeStructuredData(host, null), [host]);
}
