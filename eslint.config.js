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
            group: ['../*/**', '!../lib/**', '!../locales/**', '../../**', '!../../lib/**', '!../../locales/**'],
            message: "An element folder never imports another element's folder: share through widgets/lib/.",
          },
        ],
      },
    ],
  },
};

const libBoundary = {
  files: ['widgets/lib/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['../*/**', '!../lib/**', '!../locales/**', '../../*/**', '!../../locales/**', '!../../lib/**', '../index*', '../../index*'],
            message: 'widgets/lib/ is shared by every element and never imports an element.',
          },
        ],
      },
    ],
  },
};

const serverBoundary = {
  files: ['server/**/*.ts', 'supabase/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ group: ['**/widgets/**', 'widgets/**'], message: 'server/ never imports widgets/: keep the data server and the UI apart.' }] },
    ],
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'dist-types/**', 'node_modules/**', '.data/**', '.cache/**', 'supabase/functions/*/index.ts', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  { files: ['tests/**/*.ts'], rules: { '@typescript-eslint/no-unused-expressions': 'off' } },
  elementBoundary,
  libBoundary,
  serverBoundary,
);
