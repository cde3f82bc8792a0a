/** An element's utilities, compiled at build time from the files it can run (scripts/widget-styles.ts). */
declare module 'virtual:exp-utilities/*' {
  const css: string;
  export default css;
}

/**
 * The texts of the shared runtime (`base`), of one element or of a lazily loaded part
 * (scripts/widget-texts.ts): its groups in English, and the download of the same in Spanish.
 */
declare module 'virtual:exp-texts/*' {
  const texts: {
    en: Record<string, unknown>;
    es: () => Promise<{ default: Record<string, unknown> }>;
  };
  export default texts;
}
