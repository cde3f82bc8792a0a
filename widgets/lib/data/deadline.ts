/**
 * The elements' deadline for a whole answer (DATA_DEADLINE_MS, ./client.ts) for the clients that
 * take a fetch rather than a timeout: the edge functions' (./functions.ts) and Auth's (./agent-area.ts).
 */
import { DATA_DEADLINE_MS, readWhole } from './client.ts';

/**
 * `readWhole` under the deadline (DATA_DEADLINE_MS, or `ms` for a call that sends a file), the
 * caller's own signal still heard: past it, the call fails as a network error does, and each element
 * says so in its own words.
 */
export function fetchWithDeadline(
  input: RequestInfo | URL,
  init?: RequestInit,
  ms = DATA_DEADLINE_MS,
): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const given = init?.signal;
  if (given?.aborted) controller.abort(given.reason);
  else given?.addEventListener('abort', () => controller.abort(given.reason), { once: true });
  return readWhole(input, { ...init, signal: controller.signal }).finally(() => clearTimeout(timer));
}
