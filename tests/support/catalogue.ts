/**
 * A database's schema as PostgreSQL itself describes it, to compare two databases object by object
 * (tests/contract/schema-files.test.ts: the one the migrations build and the one the schema files
 * build). For the schemas we own (`public`, `internal`) and what the roles may do there: every
 * table with its columns (in order, with types, defaults, generation, nullability), constraints,
 * indexes, views, functions (their whole definition), triggers, policies, row level security,
 * privileges (tables, columns, functions, schemas, the default ones; whoever granted them in
 * whatever order), the roles' settings, the
 * comments, and the rows a migration writes into an empty database (reference data).
 */
import type { Queryable } from '../../server/db/database.ts';

const OURS = "('public', 'internal')";

const QUERIES: Record<string, string> = {
  schemas: `select nspname as name, (select coalesce(string_agg(x::text, ',' order by x::text), '') from unnest(nspacl) x) as acl from pg_namespace where nspname in ('public', 'internal', 'extensions') order by 1`,
  extensions: `select extname as name, n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where extname <> 'plpgsql' order by 1`,
  relations: `select n.nspname || '.' || c.relname as name, c.relkind::text as kind, c.relrowsecurity as rls, c.relforcerowsecurity as force_rls, coalesce(c.reloptions::text, '') as options, (select coalesce(string_agg(x::text, ',' order by x::text), '') from unnest(c.relacl) x) as acl
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ${OURS} and c.relkind in ('r', 'v', 'm', 'S', 'p', 'f') order by 1`,
  columns: `select n.nspname || '.' || c.relname as rel, (row_number() over (partition by c.oid order by a.attnum))::int as position, a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
           a.attgenerated::text as generated, a.attidentity::text as identity, coalesce(pg_get_expr(d.adbin, d.adrelid), '') as expr, (select coalesce(string_agg(x::text, ',' order by x::text), '') from unnest(a.attacl) x) as acl
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
     where n.nspname in ${OURS} and c.relkind in ('r', 'v', 'm', 'p') and a.attnum > 0 and not a.attisdropped order by 1, 2`,
  constraints: `select n.nspname || '.' || c.relname as rel, con.conname as name, pg_get_constraintdef(con.oid) as def
      from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ${OURS} order by 1, 2`,
  indexes: `select schemaname || '.' || tablename as rel, indexname as name, indexdef as def from pg_indexes where schemaname in ${OURS} order by 1, 2`,
  views: `select n.nspname || '.' || c.relname as name, pg_get_viewdef(c.oid, true) as def
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ${OURS} and c.relkind in ('v', 'm') order by 1`,
  functions: `select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as name, pg_get_functiondef(p.oid) as def, (select coalesce(string_agg(x::text, ',' order by x::text), '') from unnest(p.proacl) x) as acl
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname in ${OURS} and p.prokind in ('f', 'p') order by 1`,
  triggers: `select c.relname as rel, t.tgname as name, pg_get_triggerdef(t.oid) as def
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname in ${OURS} and not t.tgisinternal order by 1, 2`,
  policies: `select schemaname || '.' || tablename as rel, policyname as name, permissive, roles::text as roles, cmd, coalesce(qual, '') as qual, coalesce(with_check, '') as with_check
      from pg_policies where schemaname in ${OURS} order by 1, 2`,
  defaultPrivileges: `select coalesce(n.nspname, '') as schema, d.defaclobjtype::text as kind, (select coalesce(string_agg(x::text, ',' order by x::text), '') from unnest(d.defaclacl) x) as acl, r.rolname as owner
      from pg_default_acl d join pg_roles r on r.oid = d.defaclrole left join pg_namespace n on n.oid = d.defaclnamespace order by 1, 2, 4`,
  roleSettings: `select r.rolname as role, coalesce(s.setconfig::text, '') as config
      from pg_db_role_setting s join pg_roles r on r.oid = s.setrole where r.rolname in ('anon', 'authenticated', 'service_role') order by 1`,
  roles: `select rolname as name, rolcanlogin as login, rolinherit as inherit, rolbypassrls as bypassrls from pg_roles where rolname in ('anon', 'authenticated', 'service_role') order by 1`,
  comments: `select coalesce(pg_describe_object(d.classoid, d.objoid, d.objsubid), '') as object, d.description
      from pg_description d
      left join pg_class c on d.classoid = 'pg_class'::regclass and c.oid = d.objoid
      left join pg_proc p on d.classoid = 'pg_proc'::regclass and p.oid = d.objoid
      join pg_namespace n on n.oid = coalesce(c.relnamespace, p.pronamespace)
     where n.nspname in ${OURS} order by 1`,
};

export type Catalogue = Record<string, unknown[]>;

/** The catalogue of the database `q` is connected to, plus the rows its tables hold (by table, as text). */
export async function catalogue(q: Queryable): Promise<Catalogue> {
  const out: Catalogue = {};
  for (const [name, sql] of Object.entries(QUERIES)) out[name] = await q.query(sql);
  // reference data: whatever rows the schema itself writes (an empty database otherwise)
  const tables = await q.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ${OURS} and c.relkind = 'r' order by 1`,
  );
  const rows: unknown[] = [];
  for (const { name } of tables) {
    const [r] = await q.query<{ n: number; digest: string | null }>(
      `select count(*)::int as n, md5(string_agg(t::text, '|' order by t::text)) as digest from ${name} t`,
    );
    if (r && r.n > 0) rows.push({ table: name, ...r });
  }
  out.rows = rows;
  return out;
}

/** The differences between two catalogues, one line each (empty when equal). */
export function catalogueDiff(a: Catalogue, b: Catalogue): string[] {
  const lines: string[] = [];
  for (const part of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const left = new Map((a[part] ?? []).map((r) => [JSON.stringify(r), r]));
    const right = new Map((b[part] ?? []).map((r) => [JSON.stringify(r), r]));
    for (const [k] of left) if (!right.has(k)) lines.push(`${part}: only in the first: ${k.slice(0, 400)}`);
    for (const [k] of right) if (!left.has(k)) lines.push(`${part}: only in the second: ${k.slice(0, 400)}`);
  }
  return lines;
}
