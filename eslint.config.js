// @ts-check
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { house } from './scripts/eslint-house.js';
import { NODE_TESTS } from './tests/support/node-tests.mjs';

/** The house's import rules between the top-level folders (scripts/eslint-house.js). */
const houseRules = {
  files: ['**/*.{ts,tsx,js,mjs}'],
  plugins: { house },
  rules: { 'house/imports': 'error' },
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
        selector:
          'CallExpression[callee.property.name=/^replace(All)?$/][arguments.1.type=/^(Identifier|MemberExpression|CallExpression|BinaryExpression|ConditionalExpression|LogicalExpression)$/]',
        message:
          'Pass a function as the replacement (() => text): a string argument is read as a replacement pattern ($&, $1).',
      },
      {
        selector:
          'CallExpression[callee.property.name=/^replace(All)?$/] > TemplateLiteral.arguments:nth-child(2)[expressions.length>0]',
        message:
          'Pass a function as the replacement (() => `...`): a template with data is read as a replacement pattern ($&, $1).',
      },
    ],
  },
};

/** A file a reader takes in at once (docs/architecture.md "House rules"): 450 lines at most. */
const shortFiles = {
  files: ['**/*.{ts,tsx,js,mjs}'],
  rules: { 'max-lines': ['error', { max: 450 }] },
};

export default tseslint.config(
  { ignores: ['.scratch/**', 'dist/**', 'dist-types/**', 'node_modules/**', '.data/**', '.cache/**', 'coverage/**'] },
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
  houseRules,
  noReplacementPatterns,
  shortFiles,
  {
    // the node tests share their worker's modules and process (vitest.config.ts, isolate: false): a
    // file that wrote the environment would change the files after it in that worker
    files: NODE_TESTS,
    rules: {
      'no-restricted-syntax': [
        ...noReplacementPatterns.rules['no-restricted-syntax'],
        ...[
          ":matches(AssignmentExpression > MemberExpression.left, UpdateExpression > MemberExpression.argument, UnaryExpression[operator='delete'] > MemberExpression.argument)[object.object.name='process'][object.property.name='env']",
          "CallExpression[callee.object.name='Object'][callee.property.name='assign'][arguments.0.object.name='process'][arguments.0.property.name='env']",
        ].map((selector) => ({
          selector,
          message: 'Give a server or child process its environment (options, env:) instead of writing process.env.',
        })),
      ],
    },
  },
  {
    // the pages are React components rendered to markup (docs/architecture.md, "Pages"): nothing
    // there escapes by hand; the two writers that escape by construction are core/protocol/html.ts
    // attrs and core/xml.ts
    files: ['server/pages/**/*.{ts,tsx}'],
    ignores: ['server/pages/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/core/fill.ts', '**/core/protocol/html.ts'],
              importNames: ['escapeHtml'],
              message:
                'Write the markup as a component (server/pages/html.tsx) or with attrs (core/protocol/html.ts) or el (core/xml.ts), which escape by construction.',
            },
          ],
        },
      ],
    },
  },
);
