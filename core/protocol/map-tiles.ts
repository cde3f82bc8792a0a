/**
 * The maps' tiles and the credit their provider asks for (docs/deployment.md, "Map tiles"): what a
 * deployment may set (MAP_TILES_URL, MAP_TILES_ATTRIBUTION, read by server/config.ts) and how the
 * elements take the same (`tile-url`, `tile-attribution`; the credit: widgets/lib/map/map-controls.tsx).
 * Without a provider the maps use OpenStreetMap's own tiles (widgets/lib/map/map-base.ts
 * OSM_TILES), which are for development only: its tile usage policy forbids heavy use and promises
 * no service.
 */

/** A tile provider of a deployment: its URL template and the credit (HTML: text and links) its terms ask for. */
export interface MapTiles {
  url: string;
  attribution: string;
}

/** A piece of a credit: text, or a link. */
export type CreditPart = string | { text: string; href: string };

/** The template with its placeholders filled as OpenLayers fills them ({z} {x} {y} {-y}, and {a-c} or {1-4} for hosts). */
const filled = (template: string) =>
  template.replace(/\{[a-z0-9]-[a-z0-9]\}/gi, () => 'a').replace(/\{(?:z|x|-?y)\}/g, () => '0');

/**
 * Why a tile URL template cannot be a deployment's (undefined: it can): https, with {z}, {x} and
 * {y} (or {-y}), and no placeholder OpenLayers does not fill (Leaflet's {s} and {r}, a key's
 * `{apikey}` left in).
 */
export function tilesUrlProblem(template: string): string | undefined {
  const example = 'such as https://tiles.example.com/{z}/{x}/{y}.png?key=...';
  if (!template.includes('{z}') || !template.includes('{x}') || !/\{-?y\}/.test(template))
    return `must be a URL template with {z}, {x} and {y} (${example})`;
  const sample = filled(template);
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    return `must be an https URL template (${example})`;
  }
  if (url.protocol !== 'https:') return `must be an https URL template (${example}): the pages are served over https`;
  const unknown = sample.match(/\{[^}]*\}/g);
  if (unknown)
    return `has placeholders OpenLayers does not fill: ${unknown.join(', ')} (write {a-c} for Leaflet's {s}, and the key itself for {apikey})`;
  return undefined;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©' };

/** The entities a provider's credit holds (&copy;, &amp;, &#169;); any other named one is left as written. */
function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name.toLowerCase()] ?? whole;
  });
}

function isWebUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

const LINK = /<a\s(?:[^>]*?\s)?href\s*=\s*(?:"([^"]*)"|'([^']*)')[^>]*>([^<]*)<\/a\s*>/gi;

/**
 * A credit as providers write it: text and links, `&copy; <a href="https://www.maptiler.com/copyright/">MapTiler</a>`.
 * Undefined when it holds other markup, a link that is not http(s) or no text at all.
 */
export function parseTilesCredit(html: string): CreditPart[] | undefined {
  const parts: CreditPart[] = [];
  const text = (t: string) => {
    if (t.includes('<') || t.includes('>')) return false;
    if (t) parts.push(decode(t));
    return true;
  };
  let at = 0;
  for (const m of html.matchAll(LINK)) {
    if (!text(html.slice(at, m.index))) return undefined;
    const href = decode(m[1] ?? m[2] ?? '').trim();
    if (!isWebUrl(href)) return undefined;
    parts.push({ text: decode(m[3] ?? ''), href });
    at = m.index + m[0].length;
  }
  if (!text(html.slice(at))) return undefined;
  const words = parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');
  return words.trim() ? parts : undefined;
}
