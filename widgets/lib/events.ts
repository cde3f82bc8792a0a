/**
 * Every public event of the elements. Each element adds its own entries by declaration merging
 * (`declare module '../lib/events.ts' { interface ExpEventMap { ... } }`), so `emit()` is typed
 * without this file knowing the elements.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ExpEventMap {}

export type ExpEventName = keyof ExpEventMap;

/** Fires an `exp-` event that bubbles out of the shadow root (composed) with a typed detail. */
export function emit<K extends ExpEventName>(host: EventTarget, name: K, detail: ExpEventMap[K]): boolean {
  return host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: true }));
}
