import type { Queryable } from '../db/database.ts';

export interface Relation {
  name: string;
  columns: string[];
  columnSet: Set<string>;
}

export type Schema = Map<string, Relation>;

/**
 * The schema cache: tables and views of `public` and their columns. Identifiers in SQL only ever
 * come from here; what the anon role may read is decided by PostgreSQL itself at query time.
 */
export async function loadSchema(db: Queryable): Promise<Schema> {
  const rows = await db.query<{ relation: string; column: string }>(`
    select c.relname as relation, a.attname as column
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p', 'f')
    order by c.relname, a.attnum`);
  const schema: Schema = new Map();
  for (const { relation, column } of rows) {
    let rel = schema.get(relation);
    if (!rel) {
      rel = { name: relation, columns: [], columnSet: new Set() };
      schema.set(relation, rel);
    }
    rel.columns.push(column);
    rel.columnSet.add(column);
  }
  return schema;
}

/** PostgREST's hint for a misspelt table: the closest name by edit distance. */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of names) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j] as number;
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length] as number;
}
