/** An element's utilities, compiled at build time from the files it can run (scripts/widget-styles.ts). */
declare module 'virtual:exp-utilities/*' {
  const css: string;
  export default css;
}

/** English texts of the shared runtime (`base`) or of one element (scripts/widget-texts.ts). */
declare module 'virtual:exp-texts/*' {
  const texts: Record<string, unknown>;
  export default texts;
}
