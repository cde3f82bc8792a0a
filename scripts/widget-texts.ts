/**
 * The English texts each element carries: the groups of core/locales/en.json (its top-level
 * keys: `agents`, `map`, `inquiry`, ...) that the element's files name (scripts/element-graph.ts),
 * so a page with only the agent directory does not download the map's or the inquiry form's texts.
 * The groups the element wrapper itself uses (common labels, errors, attribute messages, toasts) are
 * in the shared runtime once (`virtual:exp-texts/base`); an element's module (`virtual:exp-texts/
 * <element>`) has the rest of its groups, and a lazily loaded part its own (`virtual:exp-texts/lazy/
 * <path>`, added when it loads; a part in an element's own folder, only the groups its element lacks). Each
 * module also says where its groups in Spanish are (`virtual:exp-texts-es/<unit>`, a chunk of its own),
 * downloaded the first time the element is in Spanish (widgets/lib/i18n.ts): a Spanish page pays for
 * the Spanish texts of its own elements, as an English page for their English.
 *
 * A key is named by a string that starts with its group (`t('map.loading')`, `t(\`results.sort.${k}\`)`,
 * `{ key: 'toast.searchTitle' }`); a unit test holds every t() call to that.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { elementNames, reachable, runtimeEntry, unitFiles, unitModules, WIDGETS } from './element-graph.ts';

type Dict = Record<string, unknown>;

const locale = (lang: 'en' | 'es') => join(WIDGETS, '..', 'core', 'locales', `${lang}.json`);

function english(): Dict {
  const { site: _site, ...widgets } = JSON.parse(readFileSync(locale('en'), 'utf8')) as Dict;
  return widgets;
}

/** The groups of en.json that these sources name. */
export function groupsIn(files: string[], groups: string[] = Object.keys(english())): Set<string> {
  const named = new RegExp(`['"\`](${groups.map((g) => g.replace(/[^\w-]/g, '')).join('|')})\\.[\\w$]`, 'g');
  const found = new Set<string>();
  for (const file of files) for (const m of readFileSync(file, 'utf8').matchAll(named)) found.add(m[1] as string);
  return found;
}

/** The English texts of the shared runtime (base), of one element or of a lazily loaded part (`lazy/<path>`), without the base's groups. */
export function textsOf(name: 'base' | string): Dict {
  const all = english();
  const base = groupsIn(reachable(runtimeEntry()));
  // a part of one element (`lazy/<element>/<part>`) comes after its element, whose texts are already here
  const owner = /^lazy\/([a-z0-9-]+)\//.exec(name)?.[1];
  const loaded =
    owner && elementNames().includes(owner) ? new Set([...base, ...groupsIn(unitFiles(owner, { lazy: false }))]) : base;
  const wanted =
    name === 'base' ? base : new Set([...groupsIn(unitFiles(name, { lazy: false }))].filter((g) => !loaded.has(g)));
  return Object.fromEntries(Object.entries(all).filter(([group]) => wanted.has(group)));
}

/** The parts in an element's own folder that are loaded later (`lazy/<element>/<part>`). */
function ownParts(element: string): string[] {
  const dir = join(WIDGETS, element);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.tsx'))
    .map((f) => `lazy/${element}/${f.slice(0, -'.tsx'.length)}`)
    .filter((unit) =>
      readFileSync(join(WIDGETS, `${unit.slice('lazy/'.length)}.tsx`), 'utf8').includes(`virtual:exp-texts/${unit}'`),
    );
}

/**
 * The same groups in Spanish, one download the element waits for anyway: an element's carry those of
 * the parts in its own folder too (its "More filters", its chips), so opening one on a Spanish page
 * asks for its code alone, not its code and then its texts; such a part's own are then none. A part
 * shared by elements (lib/) carries its own.
 */
export function spanishOf(name: 'base' | string): Dict {
  const owner = /^lazy\/([a-z0-9-]+)\//.exec(name)?.[1];
  if (owner && elementNames().includes(owner)) return {};
  const all = JSON.parse(readFileSync(locale('es'), 'utf8')) as Dict;
  const groups = new Set(Object.keys(textsOf(name)));
  if (elementNames().includes(name))
    for (const part of ownParts(name)) for (const g of Object.keys(textsOf(part))) groups.add(g);
  return Object.fromEntries([...groups].map((group) => [group, all[group] ?? {}]));
}

const PREFIX = 'virtual:exp-texts/';
/** the modules of the units' texts in Spanish (the pages preload the elements': scripts/page-preloads.ts) */
export const SPANISH = 'virtual:exp-texts-es/';

/**
 * `import texts from 'virtual:exp-texts/<element>'` (or `/base`): `{ en, es }`, those English texts
 * and the download of the same groups in Spanish (a chunk of its own: widgets/lib/i18n.ts loads it
 * only when the element is in Spanish); refreshed when a widget or a locale file changes in dev.
 */
export function widgetTexts(): Plugin[] {
  return [
    unitModules(
      'exp-widget-texts',
      PREFIX,
      textsOf,
      ['base'],
      // a unit with no Spanish of its own (a part whose element brings it) has nothing to download
      (unit, en) =>
        `export default { en: ${JSON.stringify(en)}, es: () => ${
          Object.keys(spanishOf(unit)).length
            ? `import(${JSON.stringify(SPANISH + unit)})`
            : 'Promise.resolve({ default: {} })'
        } };`,
    ),
    unitModules('exp-widget-texts-es', SPANISH, spanishOf, ['base']),
  ];
}
