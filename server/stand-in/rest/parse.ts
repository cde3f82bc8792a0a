/**
 * The PostgREST query language, the subset our widgets and supabase-js users need:
 *   select=a,b,alias:c | *        order=a.desc.nullslast,b
 *   col=[not.]op.value  with op in eq neq gt gte lt lte like ilike match imatch is in cs cd
 *   (cs and cd: an array column contains, or is contained by, an array literal such as {pool,garage})
 *   or=(...) and=(...) not.or=(...) with nesting and double-quoted values
 *   limit, offset (and the Range header, handled by the caller)
 * Parsing is pure: it never sees the database; names are checked against the schema later.
 *
 * What a request may ask is bounded (docs/architecture.md "Deadlines and fair shares"), so that no
 * request of a few hundred bytes costs the database seconds: a list at most 100 values, logic trees
 * at most 3 levels deep and 100 conditions in all. What `match`, `imatch`, `like` and `ilike` take
 * is the database's rule, since a hosted project's PostgREST runs none of ours: the public columns'
 * types allow literal text and short patterns only (supabase/schemas/03_public_types.sql).
 */
import { parseError } from './errors.ts';

const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'is',
  'in',
  'cs',
  'cd',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Filter {
  kind: 'filter';
  column: string;
  negate: boolean;
  op: Operator;
  /** a single value, or the list of `in` */
  value: string | string[];
}

export interface Logic {
  kind: 'logic';
  op: 'and' | 'or';
  negate: boolean;
  conditions: Condition[];
}

export type Condition = Filter | Logic;

export interface SelectItem {
  column: string;
  alias?: string;
}

export interface OrderTerm {
  column: string;
  direction: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export interface ReadQuery {
  /** a function's arguments (GET /rpc/...): the parameters whose value is no filter */
  args?: Map<string, string>;
  select: SelectItem[] | '*';
  where: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const RESERVED = new Set([
  'select',
  'order',
  'limit',
  'offset',
  'or',
  'and',
  'not.or',
  'not.and',
  'columns',
  'on_conflict',
]);
const MAX_CONDITIONS = 100;
const MAX_IN_VALUES = 100;
const MAX_DEPTH = 2;

function ident(name: string, what: string): string {
  if (!IDENT.test(name)) throw parseError(what, `"${name}" is not a valid column name`);
  return name;
}

export function parseSelect(text: string): SelectItem[] | '*' {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '*') return '*';
  const items: SelectItem[] = [];
  for (const raw of trimmed.split(',')) {
    const part = raw.trim();
    if (part === '*') return '*';
    if (/[()]/.test(part)) throw parseError(`select (${text})`, 'Embedded resources are not supported by this server');
    if (part.includes('::')) throw parseError(`select (${text})`, 'Casts are not supported by this server');
    const m = /^(?:([A-Za-z_][A-Za-z0-9_]*):)?([A-Za-z_][A-Za-z0-9_]*)$/.exec(part);
    if (!m) throw parseError(`select (${text})`, `unexpected "${part}"`);
    items.push(m[1] ? { column: m[2] as string, alias: m[1] } : { column: m[2] as string });
  }
  if (items.length > 200) throw parseError('select', 'too many columns');
  return items;
}

export function parseOrder(text: string): OrderTerm[] {
  if (text.trim() === '') return [];
  return text.split(',').map((raw) => {
    const parts = raw.trim().split('.');
    const column = ident(parts[0] ?? '', `order (${text})`);
    const term: OrderTerm = { column, direction: 'asc' };
    for (const modifier of parts.slice(1)) {
      if (modifier === 'asc' || modifier === 'desc') term.direction = modifier;
      else if (modifier === 'nullsfirst') term.nulls = 'first';
      else if (modifier === 'nullslast') term.nulls = 'last';
      else
        throw parseError(
          `order (${text})`,
          `unexpected "${modifier}" expecting "asc", "desc", "nullsfirst" or "nullslast"`,
        );
    }
    return term;
  });
}

function parseNonNegative(name: string, text: string): number {
  if (!/^\d{1,15}$/.test(text.trim())) throw parseError(`${name} (${text})`, `${name} must be a non-negative integer`);
  return Number(text.trim());
}

/** Splits `a,b,(c,d),"e,f"` at top-level commas, respecting parentheses and double quotes. */
function splitTopLevel(text: string, what: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted) {
      current += ch;
      if (ch === '\\' && i + 1 < text.length) current += text[++i];
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth < 0) throw parseError(what, 'unbalanced parentheses');
    } else if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  if (quoted) throw parseError(what, 'unterminated double quote');
  if (depth !== 0) throw parseError(what, 'unbalanced parentheses');
  parts.push(current);
  return parts;
}

/** A double-quoted value with backslash escapes, or the text as it is. */
function unquote(text: string, what: string): string {
  if (!text.startsWith('"')) return text;
  if (text.length < 2 || !text.endsWith('"')) throw parseError(what, 'unterminated double quote');
  let out = '';
  for (let i = 1; i < text.length - 1; i++) {
    const ch = text[i] as string;
    if (ch === '\\') {
      const next = text[i + 1];
      if (next === undefined || i + 1 >= text.length - 1) throw parseError(what, 'dangling escape');
      out += next;
      i++;
    } else if (ch === '"') throw parseError(what, 'unexpected double quote inside a quoted value');
    else out += ch;
  }
  return out;
}

function parseList(text: string, what: string): string[] {
  if (!text.startsWith('(') || !text.endsWith(')')) throw parseError(what, 'a list must be written (a,b,c)');
  const inner = text.slice(1, -1);
  if (inner === '') return [];
  const values = splitTopLevel(inner, what).map((v) => unquote(v, what));
  if (values.length > MAX_IN_VALUES) throw parseError(what, `at most ${MAX_IN_VALUES} values in a list`);
  return values;
}

/** `[not.]op.value` for a column; `inLogic` values may be quoted and end at , or ). */
function parseOperation(column: string, text: string, inLogic: boolean, what: string): Filter {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const dot = rest.indexOf('.');
  const op = (dot < 0 ? rest : rest.slice(0, dot)) as Operator;
  if (!(OPERATORS as readonly string[]).includes(op)) {
    throw parseError(
      what,
      `unexpected "${dot < 0 ? rest : rest.slice(0, dot)}" expecting "not" or an operator (${OPERATORS.join(', ')})`,
    );
  }
  if (dot < 0) throw parseError(what, `"${op}" needs a value`);
  const raw = rest.slice(dot + 1);
  if (op === 'in') return { kind: 'filter', column, negate, op, value: parseList(raw, what) };
  const value = inLogic ? unquote(raw, what) : raw;
  if (op === 'is' && !/^(null|true|false|unknown)$/i.test(value)) {
    throw parseError(what, `unexpected "${value}" expecting null, true, false or unknown`);
  }
  return { kind: 'filter', column, negate, op, value };
}

/** `(a.eq.1,or(b.gt.2,c.is.null),not.and(d.lt.3,e.neq.4))` */
function parseLogic(op: 'and' | 'or', negate: boolean, text: string, depth: number, what: string): Logic {
  if (depth > MAX_DEPTH) throw parseError(what, 'conditions nested too deeply');
  if (!text.startsWith('(') || !text.endsWith(')'))
    throw parseError(what, `"${op}" needs a parenthesised list of conditions`);
  const inner = text.slice(1, -1);
  if (inner.trim() === '') throw parseError(what, `"${op}" needs at least one condition`);
  const conditions = splitTopLevel(inner, what).map((part): Condition => {
    const item = part.trim();
    const logic = /^(not\.)?(and|or)(\(.*\))$/s.exec(item);
    if (logic) return parseLogic(logic[2] as 'and' | 'or', Boolean(logic[1]), logic[3] as string, depth + 1, what);
    const dot = item.indexOf('.');
    if (dot < 0) throw parseError(what, `unexpected "${item}" expecting a condition column.operator.value`);
    return parseOperation(ident(item.slice(0, dot), what), item.slice(dot + 1), true, what);
  });
  return { kind: 'logic', op, negate, conditions };
}

function countConditions(list: Condition[]): number {
  return list.reduce((n, c) => n + (c.kind === 'logic' ? 1 + countConditions(c.conditions) : 1), 0);
}

const FILTER_VALUE = new RegExp(`^(not\\.)?(${OPERATORS.join('|')})\\.`);

/**
 * Parses the query string of a read. Keys may repeat (`price=gte.1&price=lte.9`). For a function
 * (`rpc`), as PostgREST does, a parameter whose value is no `[not.]operator.value` is an argument.
 */
export function parseReadQuery(params: URLSearchParams, rpc = false): ReadQuery {
  const query: ReadQuery = { select: '*', where: [], order: [] };
  if (rpc) query.args = new Map();
  for (const [key, value] of params) {
    switch (key) {
      case 'select':
        query.select = parseSelect(value);
        break;
      case 'order':
        query.order = parseOrder(value);
        break;
      case 'limit':
        query.limit = parseNonNegative('limit', value);
        break;
      case 'offset':
        query.offset = parseNonNegative('offset', value);
        break;
      case 'or':
      case 'and':
      case 'not.or':
      case 'not.and': {
        const negate = key.startsWith('not.');
        query.where.push(
          parseLogic(key.replace('not.', '') as 'and' | 'or', negate, value, 0, `logic tree (${value})`),
        );
        break;
      }
      case 'columns':
      case 'on_conflict':
        break;
      default: {
        if (RESERVED.has(key)) break;
        if (query.args && !FILTER_VALUE.test(value)) {
          if (query.args.has(key)) throw parseError(`arguments (${key})`, `"${key}" is given more than once`);
          query.args.set(key, value);
          break;
        }
        // every other key filters a column (its existence is checked against the schema)
        const column = ident(key, `filter (${key})`);
        query.where.push(parseOperation(column, value, false, `filter (${value})`));
      }
    }
  }
  if (countConditions(query.where) > MAX_CONDITIONS)
    throw parseError('filters', `at most ${MAX_CONDITIONS} conditions`);
  return query;
}
