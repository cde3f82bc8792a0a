/**
 * A SQL script split into its statements (comments, quoted text and dollar-quoted bodies kept
 * whole), and what object a statement creates, for the checks of supabase/schemas/.
 */
export function sqlStatements(sql: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'") {
      i++;
      while (i < sql.length && !(sql[i] === "'" && sql[i + 1] !== "'")) i += sql[i] === "'" ? 2 : 1;
      i++;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64))) {
      const tag = (/^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64)) as RegExpExecArray)[0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end < 0 ? sql.length : end + tag.length;
    } else if (c === ';') {
      out.push(sql.slice(start, i + 1));
      start = ++i;
    } else i++;
  }
  if (sql.slice(start).trim()) out.push(sql.slice(start));
  return out.map((s) => s.replace(/^(\s*--[^\n]*\n|\s+)*/, '')).filter((s) => s.trim());
}

/** "function public.search_fold", "table internal.listings", ...: what a statement creates; undefined for anything else. */
export function createdObject(statement: string): string | undefined {
  const head = statement.replace(/\s+/g, ' ').toLowerCase();
  const m =
    /^create (?:or replace )?(function|procedure|view|materialized view) ([\w.]+)/.exec(head) ??
    /^create (?:unlogged )?(table) (?:if not exists )?([\w.]+)/.exec(head) ??
    /^create (?:unique )?(index) (?:if not exists )?([\w.]+)/.exec(head) ??
    /^create (?:or replace )?(trigger) (\w+ .*? on [\w.]+)/.exec(head) ??
    /^create (policy) ("[^"]+" on [\w.]+)/.exec(head);
  return m ? `${m[1]} ${m[2]}` : undefined;
}
