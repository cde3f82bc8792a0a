// @ts-check
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Element folders are islands: they share code only through widgets/lib/. */
const elementBoundary = {
  files: ['widgets/*/**/*.{ts,tsx}'],
  ignores: ['widgets/lib/**', 'widgets/locales/**'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^\\.\\./(?!lib/|locales/)',
            message: "An element folder never imports another element's folder: share through widgets/lib/.",
          },
        ],
      },
    ],
  },
};

const libMessage = 'widgets/lib/ is shared by every element and never imports an element.';
// the one folder the widgets share with the server: the rules both sides apply (the wire protocol)
const PROTOCOL = '(\\.\\./)*supabase/functions/_shared/protocol/';
const libBoundary = [
  {
    files: ['widgets/lib/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: `^\\.\\./(?!locales/|${PROTOCOL})`, message: libMessage }] }] },
  },
  {
    files: ['widgets/lib/*/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: `^\\.\\./\\.\\./(?!locales/|lib/|${PROTOCOL})`, message: libMessage }] }] },
  },
];

const serverBoundary = {
  files: ['server/**/*.ts', 'supabase/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ group: ['**/widgets/**', 'widgets/**'], message: 'server/ never imports widgets/: keep the data server and the UI apart.' }] },
    ],
  },
};

/**
 * Data never becomes a replacement pattern (docs/decisions.md #24): in `s.replace(x, text)` a text
 * holding `$&`, `$'` or `$1` is read as a pattern, so a listing whose description says "US$$"
 * corrupts the page it is written into. The replacement is a literal, or a function.
 */
const noReplacementPatterns = {
  files: ['**/*.{ts,tsx}'],
  rules: {
    'no-restricted-syntax': [
      'error',
      {
        selector: "CallExpression[callee.property.name=/^replace(All)?$/][arguments.1.type=/^(Identifier|MemberExpression|CallExpression|BinaryExpression|ConditionalExpression|LogicalExpression)$/]",
        message: 'Pass a function as the replacement (() => text): a string argument is read as a replacement pattern ($&, $1).',
      },
      {
        selector: "CallExpression[callee.property.name=/^replace(All)?$/] > TemplateLiteral.arguments:nth-child(2)[expressions.length>0]",
        message: 'Pass a function as the replacement (() => `...`): a template with data is read as a replacement pattern ($&, $1).',
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['.scratch/**', 'dist/**', 'dist-types/**', 'node_modules/**', '.data/**', '.cache/**', 'supabase/functions/*/index.ts', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['widgets/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // the classic rules; the React Compiler's rules assume its memoisation, which we do not use,
      // and flag the writes to signals (state meant to be mutated) that the stack is built on
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'react-hooks/set-state-in-render': 'error',
      'react-hooks/static-components': 'error',
      'react-hooks/use-memo': 'error',
      'react-hooks/error-boundaries': 'error',
    },
  },
  { files: ['tests/**/*.ts'], rules: { '@typescript-eslint/no-unused-expressions': 'off' } },
  elementBoundary,
  ...libBoundary,
  serverBoundary,
  noReplacementPatterns,
);
