/**
 * Typed, validated attributes. Everything arrives as text; a bad value must never break the
 * element: it is reported (visibly and in the console) and the default is used instead.
 */
export type AttrSpec =
  | {
      type: 'string';
      default?: string;
      maxLength?: number;
      /** the form a value must have, and an example of it for the message */ format?: {
        test: (text: string) => boolean;
        example: string;
      };
    }
  | { type: 'number'; default?: number; min?: number; max?: number; integer?: boolean }
  | { type: 'boolean'; default?: boolean }
  | { type: 'enum'; values: readonly string[]; default?: string }
  | { type: 'url'; default?: string };

export type AttrSchema = Record<string, AttrSpec>;

type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

type ValueOf<S extends AttrSpec> = S extends { type: 'number' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'enum'; values: readonly (infer V)[] }
      ? V
      : string;

export type AttrValues<S extends AttrSchema> = {
  [K in keyof S & string as CamelCase<K>]: S[K] extends { default: unknown }
    ? ValueOf<S[K]>
    : ValueOf<S[K]> | undefined;
};

export interface AttrError {
  attribute: string;
  value: string;
  /** i18n key under `attributes.` describing what was expected */
  expected: 'number' | 'integer' | 'min' | 'max' | 'boolean' | 'oneOf' | 'url' | 'tooLong' | 'format';
  /** interpolation values for the message (allowed values, bounds) */
  params: Record<string, string | number>;
}

export function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

type Parsed = { value: unknown; error?: Omit<AttrError, 'attribute' | 'value'> };

export function parseAttribute(spec: AttrSpec, raw: string | null, name: string): Parsed {
  const fallback = { value: spec.default };
  if (raw === null) return fallback;
  const text = raw.trim();
  switch (spec.type) {
    case 'string':
      if (spec.maxLength !== undefined && text.length > spec.maxLength) {
        return { ...fallback, error: { expected: 'tooLong', params: { max: spec.maxLength } } };
      }
      if (text !== '' && spec.format && !spec.format.test(text))
        return { ...fallback, error: { expected: 'format', params: { example: spec.format.example } } };
      return text === '' ? fallback : { value: text };
    case 'number': {
      if (text === '') return fallback;
      const n = Number(text);
      if (!Number.isFinite(n))
        return { ...fallback, error: { expected: spec.integer ? 'integer' : 'number', params: {} } };
      if (spec.integer && !Number.isInteger(n)) return { ...fallback, error: { expected: 'integer', params: {} } };
      if (spec.min !== undefined && n < spec.min)
        return { ...fallback, error: { expected: 'min', params: { min: spec.min } } };
      if (spec.max !== undefined && n > spec.max)
        return { ...fallback, error: { expected: 'max', params: { max: spec.max } } };
      return { value: n };
    }
    case 'boolean': {
      // a bare attribute (`<x no-map>`) and `no-map="no-map"` mean true, as in HTML
      const lower = text.toLowerCase();
      if (lower === '' || lower === 'true' || lower === name) return { value: true };
      if (lower === 'false') return { value: false };
      return { ...fallback, error: { expected: 'boolean', params: {} } };
    }
    case 'enum': {
      if (text === '') return fallback;
      const lower = text.toLowerCase();
      const match = spec.values.find((v) => v.toLowerCase() === lower);
      return match !== undefined
        ? { value: match }
        : { ...fallback, error: { expected: 'oneOf', params: { values: spec.values.join(', ') } } };
    }
    case 'url': {
      if (text === '') return fallback;
      try {
        const url = new URL(text, typeof location === 'undefined' ? 'http://localhost/' : location.href);
        if (url.protocol === 'http:' || url.protocol === 'https:') return { value: text };
      } catch {
        // reported below
      }
      return { ...fallback, error: { expected: 'url', params: {} } };
    }
  }
}

export function parseAttributes<S extends AttrSchema>(
  schema: S,
  read: (name: string) => string | null,
): { values: AttrValues<S>; errors: AttrError[] } {
  const values: Record<string, unknown> = {};
  const errors: AttrError[] = [];
  for (const [name, spec] of Object.entries(schema)) {
    const raw = read(name);
    const parsed = parseAttribute(spec, raw, name);
    values[camelCase(name)] = parsed.value;
    if (parsed.error) errors.push({ attribute: name, value: raw ?? '', ...parsed.error });
  }
  return { values: values as AttrValues<S>, errors };
}
