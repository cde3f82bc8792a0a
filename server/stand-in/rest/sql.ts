/**
 * Turns a parsed read into SQL. Identifiers come only from the schema cache (quoted); every value
 * is a bind parameter. The JSON body is built by PostgreSQL (json_agg), so Node never parses or
 * re-serialises rows.
 */
import { columnNotFound } from './errors.ts';
import type { Condition, ReadQuery } from './parse.ts';
import type { Relation } from './schema.ts';

export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

// match and imatch are POSIX regular expressions (~, ~*), as PostgREST reads them
const COMPARISON: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
};

export interface Built {
  sql: string;
  params: unknown[];
}

/**
 * What a read selects from: a table or view of `public`, or a function's result (rpc.ts), whose
 * FROM item may come with parameters of its own ($1...).
 */
export interface Source {
  from: string;
  params: unknown[];
}

const tableSource = (relation: Relation): Source => ({ from: `public.${quote(relation.name)}`, params: [] });

class Builder {
  params: unknown[];
  constructor(
    readonly relation: Relation,
    source: Source,
  ) {
    this.params = [...source.params];
  }

  column(name: string): string {
    if (!this.relation.columnSet.has(name)) throw columnNotFound(this.relation.name, name);
    return quote(name);
  }

  bind(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  condition(c: Condition): string {
    let sql: string;
    if (c.kind === 'logic') {
      sql = `(${c.conditions.map((x) => this.condition(x)).join(c.op === 'and' ? ' and ' : ' or ')})`;
    } else {
      const col = this.column(c.column);
      if (c.op === 'is') sql = `${col} is ${String(c.value).toLowerCase()}`;
      else if (c.op === 'in') {
        const list = c.value as string[];
        sql = list.length ? `${col} in (${list.map((v) => this.bind(v)).join(', ')})` : 'false';
      } else {
        // PostgREST's wildcard for like/ilike is *
        const value = c.op === 'like' || c.op === 'ilike' ? (c.value as string).replace(/\*/g, '%') : c.value;
        sql = `${col} ${COMPARISON[c.op]} ${this.bind(value)}`;
      }
    }
    return c.negate ? `not ${sql}` : sql;
  }

  where(conditions: Condition[]): string {
    return conditions.length ? ` where ${conditions.map((c) => this.condition(c)).join(' and ')}` : '';
  }
}

export interface PageOptions {
  offset: number;
  limit: number;
  /** also count every matching row (Prefer: count=exact) */
  count: boolean;
}

/** One statement answering the page (and the exact count when asked): columns total, n, body. */
export function buildPage(
  relation: Relation,
  query: ReadQuery,
  page: PageOptions,
  source = tableSource(relation),
): Built {
  const b = new Builder(relation, source);
  const columns =
    query.select === '*'
      ? '*'
      : query.select
          .map((s) =>
            s.alias && s.alias !== s.column ? `${b.column(s.column)} as ${quote(s.alias)}` : b.column(s.column),
          )
          .join(', ');
  const from = source.from;
  const where = b.where(query.where);
  const order = query.order.length
    ? ` order by ${query.order.map((o) => `${b.column(o.column)} ${o.direction}${o.nulls ? ` nulls ${o.nulls}` : ''}`).join(', ')}`
    : '';
  // validated integers, written inline so the planner sees them (a LIMIT parameter can make a
  // prepared statement's generic plan skip the index that serves ORDER BY ... LIMIT)
  const limit = ` limit ${Math.trunc(page.limit)}`;
  const offset = page.offset ? ` offset ${Math.trunc(page.offset)}` : '';
  const total = page.count ? `(select count(*) from ${from}${where})` : 'null::bigint';
  return {
    sql: `select ${total} as total, count(*) as n, coalesce(json_agg(_pgrst_t), '[]')::text as body from (select ${columns} from ${from}${where}${order}${limit}${offset}) _pgrst_t`,
    params: b.params,
  };
}

/** Only the exact count (HEAD with Prefer: count=exact, as supabase-js sends `{ head: true }`). */
export function buildCount(relation: Relation, query: ReadQuery, source = tableSource(relation)): Built {
  const b = new Builder(relation, source);
  const where = b.where(query.where);
  // selected and ordered columns must still exist, as PostgREST would check them
  if (query.select !== '*') for (const s of query.select) b.column(s.column);
  for (const o of query.order) b.column(o.column);
  return { sql: `select count(*) as total from ${source.from}${where}`, params: b.params };
}
