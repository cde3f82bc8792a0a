import type { Queryable } from '../../db/database.ts';

export interface Relation {
  name: string;
  columns: string[];
  columnSet: Set<string>;
}

/** A parameter a function takes by name (PostgREST calls functions by their parameters' names). */
export interface RoutineParam {
  name: string;
  /** the SQL type, as format_type() writes it */
  type: string;
  /** false when the parameter has a default */
  required: boolean;
}

/** A function of `public`, callable as /rest/v1/rpc/<name>. */
export interface Routine {
  name: string;
  params: RoutineParam[];
  volatility: 'immutable' | 'stable' | 'volatile';
  /** returns a set (setof, returns table) */
  set: boolean;
  /** the columns of a composite result (returns table, setof a table or type), or null for a scalar */
  columns: string[] | null;
}

/** Tables and views of `public` by name, and its functions by name (overloads together). */
export type Schema = Map<string, Relation> & { routines: Map<string, Routine[]> };

/**
 * The schema cache: tables and views of `public` and their columns. Identifiers in SQL only ever
 * come from here; what the anon role may read is decided by PostgreSQL itself at query time.
 */
export async function loadSchema(db: Queryable): Promise<Schema> {
  const [relations, routines] = await Promise.all([loadRelations(db), loadRoutines(db)]);
  return Object.assign(relations, { routines });
}

async function loadRelations(db: Queryable): Promise<Map<string, Relation>> {
  const rows = await db.query<{ relation: string; column: string }>(`
    select c.relname as relation, a.attname as column
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p', 'f')
    order by c.relname, a.attnum`);
  const schema = new Map<string, Relation>();
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

/**
 * The functions of `public` (not procedures, aggregates or window functions): their input
 * parameters in order, which have defaults, volatility, and the shape of their result.
 */
async function loadRoutines(db: Queryable): Promise<Map<string, Routine[]>> {
  const rows = await db.query<{
    name: string;
    volatility: string;
    set: boolean;
    defaults: number;
    args: Array<{ name: string; type: string; mode: string }>;
    typtype: string;
    typrelid: number | string;
    rel_columns: string[] | null;
  }>(`
    select p.proname as name, p.provolatile as volatility, p.proretset as set, p.pronargdefaults::int as defaults,
      (select coalesce(json_agg(json_build_object('name', coalesce(p.proargnames[a.i], ''), 'type', pg_catalog.format_type(a.t, null), 'mode', coalesce(p.proargmodes[a.i]::text, 'i')) order by a.i), '[]'::json)
         from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(t, i)) as args,
      rt.typtype::text as typtype, rt.typrelid,
      (select array_agg(att.attname::text order by att.attnum) from pg_catalog.pg_attribute att
         where att.attrelid = rt.typrelid and att.attnum > 0 and not att.attisdropped) as rel_columns
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    join pg_catalog.pg_type rt on rt.oid = p.prorettype
    where n.nspname = 'public' and p.prokind = 'f'
    order by p.proname, p.oid`);
  const routines = new Map<string, Routine[]>();
  for (const row of rows) {
    const inputs = row.args.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
    const outputs = row.args.filter((a) => a.mode === 'o' || a.mode === 't' || a.mode === 'b');
    const firstOptional = inputs.length - row.defaults;
    const params = inputs.map((a, i) => ({ name: a.name, type: a.type, required: i < firstOptional }));
    let columns: string[] | null = null;
    if (outputs.length > 1 || row.args.some((a) => a.mode === 't')) columns = outputs.map((a) => a.name);
    else if (row.typtype === 'c' && row.rel_columns) columns = row.rel_columns;
    const routine: Routine = {
      name: row.name,
      params,
      volatility: row.volatility === 'i' ? 'immutable' : row.volatility === 's' ? 'stable' : 'volatile',
      set: row.set,
      columns,
    };
    const list = routines.get(row.name) ?? [];
    list.push(routine);
    routines.set(row.name, list);
  }
  return routines;
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
