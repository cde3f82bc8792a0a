/**
 * The English texts each element carries: the groups of core/locales/en.json (its top-level
 * keys: `agents`, `map`, `inquiry`, ...) that the element's files name (scripts/element-graph.ts),
 * so a page with only the agent directory does not download the map's or the inquiry form's texts.
 * The groups the element wrapper itself uses (common labels, errors, attribute messages, toasts) are
 * in the shared runtime once (`virtual:exp-texts/base`); an element's module (`virtual:exp-texts/
 * <element>`) has the rest of its groups, and a lazily loaded part its own (`virtual:exp-texts/lazy/
 * <path>`, added when it loads; a part in an element's own folder, only the groups its element lacks). Spanish is downloaded whole, the first time an element is in
 * Spanish (widgets/lib/i18n.ts).
 *
 * A key is named by a string that starts with its group (`t('map.loading')`, `t(\`results.sort.${k}\`)`,
 * `{ key: 'toast.searchTitle' }`); a unit test holds every t() call to that.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { elementNames, reachable, runtimeEntry, unitFiles, unitModules, WIDGETS } from './element-graph.ts';

type Dict = Record<string, unknown>;

const EN = join(WIDGETS, '..', 'core', 'locales', 'en.json');

function english(): Dict {
  const { site: _site, ...widgets } = JSON.parse(readFileSync(EN, 'utf8')) as Dict;
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

const PREFIX = 'virtual:exp-texts/';

/** `import texts from 'virtual:exp-texts/<element>'` (or `/base`): those English texts; refreshed when a widget or en.json changes in dev. */
export function widgetTexts(): Plugin {
  return unitModules('exp-widget-texts', PREFIX, textsOf, ['base']);
}
