// The node project's test files (vitest.config.ts), in plain JS so that eslint.config.js reads the
// same list: they share their worker's modules and process, and the lint rules hold them to what
// that asks (docs/architecture.md "Tests").
export const NODE_TESTS = [
  'core/**/*.test.ts',
  'server/**/*.test.ts',
  'scripts/**/*.test.ts',
  'tests/contract/**/*.test.ts',
];
