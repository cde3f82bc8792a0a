/**
 * schema.org JSON-LD for what an element shows (the builders: supabase/functions/_shared/protocol/
 * structured-data.ts), written as a `<script type="application/ld+json">` child of the element's
 * host, in the light DOM where search engines read it. Only when the page asks for it
 * (`structured-data="true"`); removed with the element or when the data goes away.
 */
import { useEffect } from 'react';
import { jsonLdText } from '../../supabase/functions/_shared/protocol/structured-data.ts';

const MARK = 'data-exp-structured-data';

export function writeStructuredData(host: HTMLElement, data: unknown): void {
  let script = [...host.children].find((c) => c.hasAttribute(MARK)) as HTMLScriptElement | undefined;
  if (data == null) {
    script?.remove();
    return;
  }
  if (!script) {
    script = document.createElement('script');
    script.type = 'application/ld+json';
    script.setAttribute(MARK, '');
    host.append(script);
  }
  const text = jsonLdText(data);
  if (script.textContent !== text) script.textContent = text;
}

export function useStructuredData(host: HTMLElement, enabled: boolean, data: unknown): void {
  useEffect(() => {
    writeStructuredData(host, enabled ? data : null);
  }, [host, enabled, data]);
  useEffect(() => () => writeStructuredData(host, null), [host]);
}

export { agentJsonLd, listingsJsonLd } from '../../supabase/functions/_shared/protocol/structured-data.ts';
