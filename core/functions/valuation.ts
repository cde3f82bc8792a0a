/**
 * A home's estimate as the functions ask it (docs/valuation.md): public.estimate_value of the facts,
 * or the field it refused (its message starts with the field) and why. One call for the seller's
 * lead, the home report's request and its monthly mail; asked outside any transaction of theirs, so
 * a refused fact never aborts one.
 */
import type { Sql } from './sql.ts';

export type EstimateAnswer = { estimate: Record<string, unknown> } | { field: string; message: string };

export async function estimateHome(sql: Sql, facts: unknown): Promise<EstimateAnswer> {
  try {
    const rows = await sql.query<{ e: Record<string, unknown> }>('select public.estimate_value($1::jsonb) as e', [
      JSON.stringify(facts),
    ]);
    return { estimate: rows[0]?.e ?? {} };
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    if (e.code !== '22023') throw error;
    const [field = 'facts', ...rest] = String(e.message).split(': ');
    return { field: /^\w+$/.test(field) ? field : 'facts', message: rest.join(': ') || 'invalid' };
  }
}
