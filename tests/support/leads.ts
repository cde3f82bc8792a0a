/**
 * What the suites of tests/contract/leads-*.test.ts share (docs/leads.md): the partner's page the
 * leads come from, idempotency keys of their own, and the waits they take (20 s at most unless
 * said; a probe that throws has not answered yet, and its last error is said if the wait runs out).
 */
import { until as waitUntil } from './until.ts';

export const PAGE_ORIGIN = 'https://agente-maria.example';
export let seq = 0;
export const key = () => `lead-${process.pid}-${++seq}-${Math.random().toString(36).slice(2, 10)}`;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** tests/support/until.ts with the leads' 20 s */
export async function until(probe: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  await waitUntil(probe, ms);
}
