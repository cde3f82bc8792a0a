/**
 * Every public event of the elements. Each element adds its own entries by declaration merging
 * (`declare module '../lib/events.ts' { interface ExpEventMap { ... } }`), so `emit()` is typed
 * without this file knowing the elements.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ExpEventMap {}

export type ExpEventName = keyof ExpEventMap;

/**
 * Fires an `exp-` event that bubbles out of the shadow root (composed) with a typed detail.
 * `cancelable` only where the element then checks the answer: the return value is false when the
 * host page called preventDefault().
 */
export function emit<K extends ExpEventName>(
  host: EventTarget,
  name: K,
  detail: ExpEventMap[K],
  options: { cancelable?: boolean } = {},
): boolean {
  return host.dispatchEvent(
    new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: options.cancelable ?? false }),
  );
}

/** A click that means "here, now" (not a new tab or window, not a download): the element may handle it in place. */
export function plainClick(e: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}
