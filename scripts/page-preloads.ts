/**
 * What a built page preloads of the widget build (docs/architecture.md "The site"): its elements'
 * chunks, and on a Spanish page their Spanish texts, read from the widget build's manifest.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './element-graph.ts';
import { SPANISH } from './widget-texts.ts';

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
}

/**
 * The widget chunks a page needs, from the widget build's manifest: for each exp- tag in the
 * page, the element's chunk and every chunk it
 * imports (their manifest keys; none without a manifest).
 */
function pageChunks(html: string, manifestFile: string): { manifest: Record<string, ManifestChunk>; keys: string[] } {
  if (!existsSync(manifestFile)) return { manifest: {}, keys: [] };
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  // the page's own elements first (those in <main>), then the header's and footer's: a browser
  // fetches preloads of one priority in the order written (docs/agent-area.md "Speed")
  const main = /<main[\s>][\s\S]*?<\/main>/.exec(html)?.[0] ?? '';
  // an element written loading="lazy" loads when it nears the view (docs/embedding.md "The script"):
  // no preload for it, unless the same element stands on the page without it
  const eager = (part: string) =>
    [...part.matchAll(/<(exp-[a-z0-9-]+)([\s>][^>]*)/g)]
      .filter((m) => !/\sloading="lazy"/.test(m[2] ?? ''))
      .map((m) => m[1] as string);
  // no element renders another (the header draws the language switch's component itself)
  const tags = new Set([...eager(main), ...eager(html)]);
  const keys = new Set<string>();
  const visit = (key: string) => {
    if (!manifest[key] || keys.has(key)) return;
    keys.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  for (const tag of tags) visit(`widgets/${tag.slice(4)}/${tag.slice(4)}.element.ts`);
  return { manifest, keys: [...keys] };
}

/**
 * The widget chunks a page needs (pageChunks). Preloading them lets the browser fetch them all at
 * once instead of one level at a time.
 */
export function widgetPreloads(html: string, manifestFile = resolve(ROOT, 'dist/widgets/manifest.json')): string[] {
  const { manifest, keys } = pageChunks(html, manifestFile);
  return keys.map((key) => `/widgets/${manifest[key]?.file}`);
}

/**
 * The Spanish texts of the page's elements and of the runtime they share (downloaded by the
 * elements when they are in Spanish; a lazily loaded part's come with it): preloaded by the
 * Spanish pages. The build marks each link with its language; the server keeps them only in the
 * pages of that language (server/pages/head.tsx).
 */
export function languagePreloads(
  html: string,
  manifestFile = resolve(ROOT, 'dist/widgets/manifest.json'),
): Array<{ href: string; lang: string }> {
  const { manifest, keys } = pageChunks(html, manifestFile);
  const texts = keys.flatMap((key) =>
    (manifest[key]?.dynamicImports ?? []).filter((d) => d.startsWith(SPANISH) && !d.includes('/lazy/')),
  );
  return [...new Set(texts)].flatMap((key) =>
    manifest[key] ? [{ href: `/widgets/${manifest[key].file}`, lang: 'es' }] : [],
  );
}
