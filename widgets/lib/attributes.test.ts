import { describe, expect, it } from 'vitest';
import { camelCase, parseAttribute, parseAttributes } from './attributes.ts';

describe('attribute parsing', () => {
  it('converts kebab-case names to properties', () => {
    expect(camelCase('api-url')).toBe('apiUrl');
    expect(camelCase('min-price')).toBe('minPrice');
    expect(camelCase('tone')).toBe('tone');
  });

  it('parses numbers and rejects text, fractions and out-of-range values with the default', () => {
    const spec = { type: 'number', min: 0, max: 10, integer: true, default: 3 } as const;
    expect(parseAttribute(spec, ' 7 ', 'beds')).toEqual({ value: 7 });
    expect(parseAttribute(spec, 'abc', 'beds')).toMatchObject({ value: 3, error: { expected: 'integer' } });
    expect(parseAttribute(spec, '2.5', 'beds')).toMatchObject({ value: 3, error: { expected: 'integer' } });
    expect(parseAttribute(spec, '11', 'beds')).toMatchObject({
      value: 3,
      error: { expected: 'max', params: { max: 10 } },
    });
    expect(parseAttribute(spec, '-1', 'beds')).toMatchObject({ value: 3, error: { expected: 'min' } });
    expect(parseAttribute(spec, '', 'beds')).toEqual({ value: 3 });
    expect(parseAttribute(spec, null, 'beds')).toEqual({ value: 3 });
    expect(parseAttribute({ type: 'number' }, 'Infinity', 'x')).toMatchObject({ error: { expected: 'number' } });
  });

  it('treats a bare boolean attribute as true, like HTML, and rejects anything but true/false', () => {
    const spec = { type: 'boolean', default: false } as const;
    expect(parseAttribute(spec, '', 'no-map')).toEqual({ value: true });
    expect(parseAttribute(spec, 'no-map', 'no-map')).toEqual({ value: true });
    expect(parseAttribute(spec, 'TRUE', 'no-map')).toEqual({ value: true });
    expect(parseAttribute(spec, 'false', 'no-map')).toEqual({ value: false });
    expect(parseAttribute(spec, 'yes', 'no-map')).toMatchObject({ value: false, error: { expected: 'boolean' } });
    expect(parseAttribute(spec, null, 'no-map')).toEqual({ value: false });
  });

  it('matches enums case-insensitively and lists the allowed values on error', () => {
    const spec = { type: 'enum', values: ['dark', 'light'], default: 'dark' } as const;
    expect(parseAttribute(spec, 'LIGHT', 'tone')).toEqual({ value: 'light' });
    expect(parseAttribute(spec, 'purple', 'tone')).toMatchObject({
      value: 'dark',
      error: { expected: 'oneOf', params: { values: 'dark, light' } },
    });
  });

  it('accepts only http(s) URLs', () => {
    const spec = { type: 'url' } as const;
    expect(parseAttribute(spec, 'https://x.supabase.co', 'api-url')).toEqual({ value: 'https://x.supabase.co' });
    expect(parseAttribute(spec, '/api', 'api-url')).toEqual({ value: '/api' });
    expect(parseAttribute(spec, 'javascript:alert(1)', 'api-url')).toMatchObject({
      value: undefined,
      error: { expected: 'url' },
    });
  });

  it('limits string length', () => {
    expect(parseAttribute({ type: 'string', maxLength: 3 }, 'abcd', 'x')).toMatchObject({
      error: { expected: 'tooLong' },
    });
    expect(parseAttribute({ type: 'string', maxLength: 3 }, ' ab ', 'x')).toEqual({ value: 'ab' });
  });

  it('parses a whole schema into camelCase values and a list of errors', () => {
    const schema = { 'min-price': { type: 'number' }, 'sync-url': { type: 'boolean', default: true } } as const;
    const attrs: Record<string, string> = { 'min-price': 'lots', 'sync-url': 'false' };
    const { values, errors } = parseAttributes(schema, (n) => attrs[n] ?? null);
    expect(values).toEqual({ minPrice: undefined, syncUrl: false });
    expect(errors).toEqual([{ attribute: 'min-price', value: 'lots', expected: 'number', params: {} }]);
  });
});
