/**
 * The site's languages, one list and one type for every part: the elements, the pages, the mails
 * and the functions. English at the plain path and Spanish under /es (core/routes.ts).
 */
export const LANGUAGES = ['en', 'es'] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = 'en';

export const isLang = (value: unknown): value is Lang => (LANGUAGES as readonly unknown[]).includes(value);

/** 'es', 'es-EC', 'ES', ' es_ec ' -> 'es'; anything unknown -> undefined. */
export function normaliseLang(value: string | null | undefined): Lang | undefined {
  const base = value?.trim().toLowerCase().split(/[-_]/)[0];
  return isLang(base) ? base : undefined;
}
