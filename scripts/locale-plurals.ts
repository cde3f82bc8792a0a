/**
 * The locale files in i18next's plural form (docs/decisions.md #25): every plural text has each form
 * its language's CLDR rules name (`Intl.PluralRules(lang).resolvedOptions().pluralCategories`:
 * English one and other; Spanish one, many and other), since i18next shows the key when the form a
 * count needs is missing. A missing form is written from the `other` one. Run once when the
 * engine changed; widgets/lib/i18n.test.ts holds the files to it since.
 *
 *   node --import tsx scripts/locale-plurals.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { LANGUAGES } from '../core/lang.ts';

type Tree = { [key: string]: string | Tree };

const SUFFIX = /_(zero|one|two|few|many|other)$/;

/** Adds the missing plural forms of `lang` to a locale tree; returns how many it wrote. */
export function completePlurals(tree: Tree, lang: string): number {
  const forms = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  let added = 0;
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'object') {
      added += completePlurals(value, lang);
      continue;
    }
    const m = SUFFIX.exec(key);
    if (!m || m[1] !== 'other') continue;
    const base = key.slice(0, -'_other'.length);
    for (const form of forms) {
      if (tree[`${base}_${form}`] === undefined) {
        tree[`${base}_${form}`] = value;
        added++;
      }
    }
  }
  return added;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const lang of LANGUAGES) {
    const file = resolve(import.meta.dirname, '../core/locales', `${lang}.json`);
    const tree = JSON.parse(readFileSync(file, 'utf8')) as Tree;
    const added = completePlurals(tree, lang);
    writeFileSync(file, JSON.stringify(tree, null, 2) + '\n');
    console.log(`${lang}: ${added} plural forms added`);
  }
}
