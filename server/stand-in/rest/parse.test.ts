import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { parseOrder, parseReadQuery, parseSelect } from './parse.ts';

const q = (s: string) => parseReadQuery(new URLSearchParams(s));
const fails = (s: string, code = 'PGRST100') => {
  try {
    q(s);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe(code);
    return (e as ApiError).message + ' ' + ((e as ApiError).details ?? '');
  }
  throw new Error(`expected ${s} to fail`);
};

describe('PostgREST query parsing', () => {
  it('parses select lists with aliases and *', () => {
    expect(parseSelect('*')).toBe('*');
    expect(parseSelect('')).toBe('*');
    expect(parseSelect('id, title,name:first_name')).toEqual([
      { column: 'id' },
      { column: 'title' },
      { column: 'first_name', alias: 'name' },
    ]);
    expect(() => parseSelect('agents(*)')).toThrow(ApiError);
    expect(() => parseSelect('id::text')).toThrow(ApiError);
    expect(() => parseSelect('a b')).toThrow(ApiError);
  });

  it('parses order terms with direction and nulls', () => {
    expect(parseOrder('price.desc.nullslast,id')).toEqual([
      { column: 'price', direction: 'desc', nulls: 'last' },
      { column: 'id', direction: 'asc' },
    ]);
    expect(() => parseOrder('price.sideways')).toThrow(ApiError);
    expect(() => parseOrder('pri;ce')).toThrow(ApiError);
  });

  it('parses column filters, repeated keys and not.', () => {
    expect(q('price=gte.1&price=lte.9&title=not.ilike.*a*').where).toEqual([
      { kind: 'filter', column: 'price', negate: false, op: 'gte', value: '1' },
      { kind: 'filter', column: 'price', negate: false, op: 'lte', value: '9' },
      { kind: 'filter', column: 'title', negate: true, op: 'ilike', value: '*a*' },
    ]);
  });

  it('keeps a plain filter value verbatim, dots and commas included', () => {
    expect(q('address=eq.Av. 6 de Diciembre, N34').where[0]).toMatchObject({ value: 'Av. 6 de Diciembre, N34' });
  });

  it('parses in lists with quoted values', () => {
    expect(q('city=in.("Bahía, de",Olón,"a\\"b")').where[0]).toMatchObject({
      op: 'in',
      value: ['Bahía, de', 'Olón', 'a"b'],
    });
    expect(q('id=in.()').where[0]).toMatchObject({ op: 'in', value: [] });
    fails('id=in.1,2');
  });

  it('parses nested or/and trees with quoted values that hold , . : ( )', () => {
    const [tree] = q('or=(first_name.ilike."*Ana, (Q).*",and(id.gt.1,email.not.is.null),not.or(a.eq.1,b.eq.2))').where;
    const filter = (column: string, op: string, value: string, negate = false) => ({
      kind: 'filter',
      column,
      negate,
      op,
      value,
    });
    const logic = (op: string, negate: boolean, ...conditions: unknown[]) => ({
      kind: 'logic',
      op,
      negate,
      conditions,
    });
    expect(tree).toEqual(
      logic(
        'or',
        false,
        filter('first_name', 'ilike', '*Ana, (Q).*'),
        logic('and', false, filter('id', 'gt', '1'), filter('email', 'is', 'null', true)),
        logic('or', true, filter('a', 'eq', '1'), filter('b', 'eq', '2')),
      ),
    );
  });

  it('unescapes backslashes and quotes inside quoted values', () => {
    const [tree] = q('or=(email.ilike."*\\\\%\\"*")').where;
    expect(tree).toMatchObject({ conditions: [{ value: '*\\%"*' }] });
  });

  it('rejects what PostgREST cannot parse with PGRST100 and a readable reason', () => {
    expect(fails('price=around.1')).toMatch(/expecting "not" or an operator/);
    expect(fails('price=eq')).toMatch(/needs a value/);
    expect(fails('or=(a.eq.1')).toMatch(/parenthes|unterminated|list/);
    expect(fails('or=(a.eq."1)')).toMatch(/quote/);
    expect(fails('or=()')).toMatch(/at least one/);
    expect(fails('or=(a)')).toMatch(/condition/);
    expect(fails('is=is.maybe')).toMatch(/null, true, false or unknown/);
    expect(fails('limit=-1')).toMatch(/non-negative/);
    expect(fails('offset=1.5')).toMatch(/non-negative/);
    expect(fails('pri%3Bce=eq.1')).toMatch(/not a valid column name/);
    expect(fails(`or=(${'or('.repeat(12)}a.eq.1${')'.repeat(12)})`)).toMatch(/nested too deeply/);
    expect(fails(Array.from({ length: 101 }, (_, i) => `c${i}=eq.1`).join('&'))).toMatch(/at most 100/);
  });

  it("bounds lists and trees (what match, imatch, like and ilike take is the database's rule: tests/contract/privileges-data-api.test.ts)", () => {
    // what agentSearchFilter sends: the visitor's words, every metacharacter escaped
    // (inside or=(...) quotes a backslash is written twice: widgets/lib/data/text.ts quoteForLogic)
    expect(q('or=(first_name_search.match."o\\\\.brien \\\\(jr\\\\)",email_search.imatch.ñandú)').where).toMatchObject([
      { conditions: [{ value: 'o\\.brien \\(jr\\)' }, { value: 'ñandú' }] },
    ]);
    expect(fails(`id=in.(${Array.from({ length: 101 }, (_, i) => i).join(',')})`)).toMatch(/at most 100 values/);
    expect(q(`id=in.(${Array.from({ length: 100 }, (_, i) => i).join(',')})`).where).toHaveLength(1);
    expect(fails('or=(and(or(and(a.eq.1))))')).toMatch(/nested too deeply/);
    expect(q('or=(and(or(a.eq.1)))').where).toHaveLength(1);
  });

  it('reads limit and offset', () => {
    expect(q('limit=24&offset=48')).toMatchObject({ limit: 24, offset: 48 });
  });
});
