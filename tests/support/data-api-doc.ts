/**
 * docs/data-api.md's tables as requests and what PostgREST answers to each (tests/contract/
 * data-api.test.ts holds our server to them; tests/contract/privileges-data-api.test.ts again on a
 * database prepared and migrated as a hosted project's).
 */
import { readFileSync } from 'node:fs';

const DOC = new URL('../../docs/data-api.md', import.meta.url);

/** A statement as slow as it is told, for the timeout row (as in deadlines.test.ts). */
export const SLEEP_FUNCTION = `
  create or replace function public.exp_test_sleep(seconds double precision) returns integer
  language plpgsql stable as $$ begin perform pg_sleep(seconds); return 1; end $$;
  grant execute on function public.exp_test_sleep(double precision) to anon;`;

export interface Sent {
  method: string;
  url: URL;
  headers: Headers;
  body: string | undefined;
}

/** What makes two requests the same shape: method, path, each parameter with its operator, the range and count headers, the body's argument names. */
export function shapeOf(r: Sent): string {
  const params = [...r.url.searchParams.entries()]
    .map(([name, value]) =>
      ['select', 'order', 'limit', 'offset'].includes(name)
        ? name
        : name === 'or' || name === 'and'
          ? name
          : `${name}=${/^(not\.)?[a-z]+/.exec(value)?.[0] ?? '?'}`,
    )
    .sort();
  const headers = [
    r.headers.has('range') ? 'range' : '',
    /count=/.test(r.headers.get('prefer') ?? '') ? 'count' : '',
    /vnd\.pgrst\.object/.test(r.headers.get('accept') ?? '') ? 'object' : '',
  ].filter(Boolean);
  let args: string[] = [];
  if (r.body) {
    const parsed = JSON.parse(r.body) as unknown;
    args = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.keys(parsed).sort() : ['(array)'];
  }
  const path = r.url.pathname.replace(/^\/rest\/v1/, '');
  return `${r.method} ${path} ?${params.join('&')} [${headers.join(',')}] {${args.join(',')}}`;
}

export interface Row {
  line: number;
  text: string;
  request: Sent;
  expect: string[];
}

/** The rows of the doc's tables whose first cell is a request. */
export function readRows(values: Record<string, string>): Row[] {
  const rows: Row[] = [];
  readFileSync(DOC, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      const cells = text.split('|').map((c) => c.trim());
      const spans = (cell: string | undefined) =>
        [...(cell ?? '').matchAll(/`([^`]+)`/g)].map((m) =>
          (m[1] as string).replace(/\{(listing2?|agent|project|types)\}/g, (_, k: string) => values[k] as string),
        );
      const [first, ...rest] = spans(cells[1]);
      const m = /^(GET|HEAD|POST|OPTIONS) (\/\S*)$/.exec(first ?? '');
      if (!m) return;
      const headers = new Headers();
      let body: string | undefined;
      for (const s of rest) {
        if (s.startsWith('{') || s.startsWith('[')) body = s;
        else {
          const at = s.indexOf(':');
          headers.set(s.slice(0, at).trim(), s.slice(at + 1).trim());
        }
      }
      if (body !== undefined) headers.set('Content-Type', 'application/json');
      rows.push({
        line: i + 1,
        text,
        request: { method: m[1] as string, url: new URL(`http://api/rest/v1${m[2]}`), headers, body },
        expect: spans(cells[3]),
      });
    });
  return rows;
}

function headerMatches(actual: string | null, expected: string): boolean {
  if (actual === null) return false;
  if (expected.startsWith('~')) return actual.toLowerCase().includes(expected.slice(1).toLowerCase());
  const pattern = expected.replace(/[.*+?^$()[\]\\|]/g, '\\$&').replace(/\\?\{n\\?\}|\{n\}/g, '\\d+');
  return new RegExp(`^${pattern}$`).test(actual);
}

/**
 * What is wrong with the answer `base` (a server's origin) gives a row, as the row's third cell
 * says PostgREST answers it; nothing when it answers so.
 */
export async function checkRow(base: string, row: Row, key: string): Promise<string[]> {
  const failures: string[] = [];
  const url = `${base}${row.request.url.pathname}${row.request.url.search}`;
  const headers = new Headers(row.request.headers);
  if (row.request.method !== 'OPTIONS') headers.set('apikey', key);
  const res = await fetch(url, { method: row.request.method, headers, body: row.request.body });
  const text = await res.text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  const wrong = (what: string) =>
    failures.push(
      `line ${row.line} (${row.request.method} ${row.request.url.pathname}): ${what}; got ${res.status} ${text.slice(0, 200)}`,
    );
  for (const e of row.expect) {
    if (/^\d{3}$/.test(e)) {
      if (res.status !== Number(e)) wrong(`status ${e}`);
    } else if (e === '2xx') {
      if (res.status < 200 || res.status > 299) wrong('a 2xx status');
    } else if (e === 'scalar') {
      if (typeof body !== 'number') wrong('a scalar');
    } else if (e.startsWith('rows: ')) {
      const n = Array.isArray(body) ? body.length : -1;
      const want = e.slice(6);
      if (want.startsWith('>') ? !(n > Number(want.slice(1))) : n !== Number(want)) wrong(`rows ${want}`);
    } else if (e.startsWith('keys: ')) {
      const keys = e.slice(6).split(',');
      if (
        !Array.isArray(body) ||
        !body.length ||
        body.some((r) => Object.keys(r as object).join(',') !== keys.join(','))
      )
        wrong(`keys ${keys.join(',')}`);
    } else if (e.startsWith('object: ')) {
      // a function answering one JSON object: these keys, in any order
      const keys = e.slice(8).split(',');
      if (!body || typeof body !== 'object' || Array.isArray(body) || keys.some((k) => !(k in (body as object))))
        wrong(`an object with ${keys.join(',')}`);
    } else if (e.startsWith('code: ')) {
      if ((body as { code?: string } | undefined)?.code !== e.slice(6)) wrong(e);
    } else {
      const at = e.indexOf(':');
      const name = e.slice(0, at);
      if (!headerMatches(res.headers.get(name), e.slice(at + 1).trim()))
        wrong(`${name}: ${e.slice(at + 1).trim()} (was ${res.headers.get(name)})`);
    }
  }
  if (!row.expect.length) wrong('an answer column');
  return failures;
}
