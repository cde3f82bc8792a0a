/**
 * The lint run fails on an import that breaks a house rule (scripts/eslint-house.js): each line of
 * the table lints one import, through the repository's own ESLint configuration, as if written in
 * a file of that folder.
 */
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

// [the file the import is written in, the import, the rule it breaks (null: allowed)]
const CASES: Array<[string, string, RegExp | null]> = [
  ['core/protocol/filters.ts', '../../widgets/lib/i18n.ts', /core\/ imports nothing outside itself/],
  ['core/routes.ts', '../server/config.ts', /core\/ imports nothing outside itself/],
  ['core/routes.ts', './protocol/text.ts', null],
  ['widgets/agent-profile/agent-profile.tsx', '../property-search/property-search.tsx', /another element's folder/],
  ['widgets/agent-profile/agent-profile.tsx', '../lib/ui/button.tsx', null],
  ['widgets/agent-profile/agent-profile.tsx', '../../core/routes.ts', null],
  ['widgets/lib/data/listings.ts', '../../property-search/property-search.tsx', /never imports an element/],
  [
    'widgets/lib/data/listings.ts',
    '../../../supabase/functions/send-property-inquiry/index.ts',
    /Nothing but the functions imports supabase\/functions/,
  ],
  ['server/pages/head.tsx', '../../widgets/lib/i18n.ts', /server\/ never imports widgets/],
  ['server/pages/head.tsx', '../../site/site.ts', /server\/ never imports site/],
  ['server/pages/head.tsx', '../../core/fill.ts', null],
  ['site/site.ts', '../server/config.ts', /site\/ never imports server/],
  [
    'supabase/functions/saved-searches/index.ts',
    '../../../server/config.ts',
    /functions import nothing from widgets\/, site\/ or server/,
  ],
  ['supabase/functions/saved-searches/index.ts', '../../../core/functions/deno-setup.ts', null],
  [
    'tests/contract/rules.test.ts',
    '../../supabase/functions/saved-searches/index.ts',
    /Nothing but the functions imports supabase\/functions/,
  ],
];

describe("the house's import rules fail the lint run", () => {
  it.each(CASES)('%s importing %s', async (file, spec, broken) => {
    for (const code of [
      `import { x } from '${spec}';\nexport const y = x;\n`,
      `export const z = () => import('${spec}');\n`,
    ]) {
      const [result] = await eslint.lintText(code, { filePath: resolve(root, file) });
      const house = result!.messages.filter((m) => m.ruleId === 'house/imports');
      if (broken) {
        expect(house, code).toHaveLength(1);
        expect(house[0]!.severity).toBe(2);
        expect(house[0]!.message).toMatch(broken);
      } else expect(house, code).toEqual([]);
    }
  });
});
