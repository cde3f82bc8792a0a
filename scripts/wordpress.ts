/**
 * The WordPress plugin (integrations/wordpress/exp-ecuador; docs/leads.md, "WordPress"), as the
 * build ships it: the plugin's files, with elements.json (every element, its summary and the
 * attributes it takes, read from the elements themselves, as the typings and the element reference
 * of docs/elements.md are), in dist/wordpress/exp-ecuador/ and zipped in dist/wordpress/exp-ecuador.zip, the
 * file WordPress's "Upload plugin" takes.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { zipSync } from 'fflate';
import { readElementApis, type ElementApi } from './element-api.ts';

const root = resolve(import.meta.dirname, '..');

export interface PluginElement {
  title: string;
  description: string;
  attributes: Record<string, { type: string; description: string; values?: string[] }>;
}

/** The elements as the plugin reads them. */
export function pluginElements(apis: ElementApi[] = readElementApis(root)): Record<string, PluginElement> {
  return Object.fromEntries(
    apis.map((el) => {
      const name = el.tag.replace(/^exp-/, '').replace(/-/g, ' ');
      const attributes: PluginElement['attributes'] = {};
      for (const a of el.attributes)
        attributes[a.name] = { type: a.kind, description: a.description, ...(a.values ? { values: a.values } : {}) };
      // every element follows `lang` (widgets/lib/i18n.ts), which no schema lists
      attributes.lang ??= {
        type: 'enum',
        description: "The language: es or en (default: the page's).",
        values: ['es', 'en'],
      };
      return [
        el.tag,
        { title: `eXp: ${name.charAt(0).toUpperCase()}${name.slice(1)}`, description: el.summary, attributes },
      ];
    }),
  );
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : [join(dir, d.name)],
  );
}

export function buildWordPressPlugin(out = join(root, 'dist', 'wordpress')): { dir: string; zip: string } {
  const dir = join(out, 'exp-ecuador');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(join(root, 'integrations', 'wordpress', 'exp-ecuador'), dir, { recursive: true });
  writeFileSync(join(dir, 'elements.json'), JSON.stringify(pluginElements(), null, 2) + '\n');
  const entries: Record<string, [Uint8Array, { mtime: Date }]> = {};
  // a fixed time: the same plugin makes the same zip
  const mtime = new Date('2026-01-01T00:00:00Z');
  for (const file of files(dir).sort()) entries[`exp-ecuador/${relative(dir, file)}`] = [readFileSync(file), { mtime }];
  const zip = join(out, 'exp-ecuador.zip');
  writeFileSync(zip, zipSync(entries, { level: 9 }));
  console.log(`WordPress plugin: ${relative(root, zip)} (${(statSync(zip).size / 1024).toFixed(1)} KB)`);
  return { dir, zip };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) buildWordPressPlugin();
