/**
 * Defines a custom element once. A host page may load our script twice (two copies of the
 * bundle, or the entry plus the all-in-one file); the second definition must be a no-op,
 * never the "already been defined" exception.
 */
export function defineOnce(tag: string, ctor: CustomElementConstructor): boolean {
  if (typeof customElements === 'undefined' || customElements.get(tag)) return false;
  customElements.define(tag, ctor);
  return true;
}
