/** The elements' utilities, compiled at build time (scripts/widget-styles.ts). */
declare module 'virtual:exp-utilities' {
  const css: string;
  export default css;
}
