/**
 * How the agents' area reads what a tab shows (her hours, her profile, her listings' figures, the
 * team's privacy requests and routing, a tab's own code): read when the tab starts and again when
 * `deps` change (her session, a "Try again"); `done` gets the answer, and a failure is logged and
 * handed to `failed` (which says so where it shows). An answer that comes after the tab closed, or
 * after `deps` changed, is dropped.
 */
import { useEffect, type DependencyList } from 'react';

export function useLoad<T>(
  load: () => Promise<T>,
  done: (value: T) => void,
  failed: () => void,
  what: string,
  deps: DependencyList,
): void {
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && done(value),
      (error: unknown) => {
        console.error(`[exp-agent-area] could not ${what}:`, error);
        if (live) failed();
      },
    );
    return () => {
      live = false;
    };
  }, deps); // eslint-disable-line react-hooks/exhaustive-deps
}
