/**
 * How the agents' area reads what a tab shows (her hours, her profile, her listings' figures, the
 * team's privacy requests and routing, a tab's own code): read when the tab starts and again when
 * `deps` change (her session, a "Try again"); `done` gets the answer, and a failure is logged and
 * handed to `failed` (which says so where it shows). An answer that comes after the tab closed, or
 * after `deps` changed, is dropped. And how a tab saves what she changed (saveWith).
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

/** What a tab says while it saves: `busy` and `message` its own state's setters; the keys of its words. */
export interface SaveWords {
  busy: (busy: boolean) => void;
  message: (key: string) => void;
  /** said while it saves ('' by default) */
  start?: string;
  /** the key a refusal's reason is added to (`agentArea.hours.refused`: `.overlap`) */
  refusals: string;
  saved: string;
  /** for the log: what could not be saved */
  what: string;
}

/**
 * How a tab saves (her hours, her profile, her photo): busy meanwhile; a refusal is named by its
 * reason, else `done` gets the answer and it says it saved; a failure is logged and said as one.
 */
export async function saveWith<T extends object>(
  call: () => Promise<T | { refused: string }>,
  words: SaveWords,
  done: (answer: T) => void,
): Promise<void> {
  words.busy(true);
  words.message(words.start ?? '');
  try {
    const answer = await call();
    if ('refused' in answer) words.message(`${words.refusals}.${answer.refused}`);
    else {
      done(answer);
      words.message(words.saved);
    }
  } catch (error) {
    console.error(`[exp-agent-area] could not save ${words.what}:`, error);
    words.message('agentArea.saveFailed');
  } finally {
    words.busy(false);
  }
}
