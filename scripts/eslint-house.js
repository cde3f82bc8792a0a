// @ts-check
/**
 * The house's import rules (docs/architecture.md, "Layout"), as one ESLint rule that resolves each
 * relative import to the folder it reaches:
 * - core/ imports nothing outside itself (everything else may import it);
 * - an element folder (widgets/<element>/) never imports another element's folder, and
 *   widgets/lib/ never imports an element: elements share through widgets/lib/;
 * - server/ never imports widgets/ or site/ (what both need lives in core/);
 * - widgets/ and site/ never import server/;
 * - nothing but the functions imports supabase/functions/, and the functions import nothing from
 *   widgets/, site/ or server/ (they deploy from this tree with core/ beside them).
 * Package imports ('react', 'node:fs') are not the house's business.
 */
import { dirname, join, relative, sep } from 'node:path';

const ROOT = dirname(dirname(new URL(import.meta.url).pathname));

/** 'widgets/agent-profile/x.tsx' -> ['widgets', 'agent-profile', 'x.tsx'] */
const parts = (/** @type {string} */ file) => relative(ROOT, file).split(sep);

/**
 * Why importing `to` from `from` breaks a house rule, or null. Both are paths from the repository's
 * root, split at '/'.
 * @param {string[]} from
 * @param {string[]} to
 * @returns {string | null}
 */
export function houseRuleBroken(from, to) {
  const [top, second] = from;
  const [toTop, toSecond] = to;
  if (top === 'core' && toTop !== 'core') return 'core/ imports nothing outside itself: move what it needs into core/.';
  const toFunctions = toTop === 'supabase' && toSecond === 'functions';
  const fromFunctions = top === 'supabase' && second === 'functions';
  if (toFunctions && !fromFunctions)
    return 'Nothing but the functions imports supabase/functions/: share through core/.';
  if (fromFunctions && (toTop === 'widgets' || toTop === 'site' || toTop === 'server'))
    return 'The functions import nothing from widgets/, site/ or server/: share through core/.';
  if (top === 'server' && toTop === 'widgets')
    return 'server/ never imports widgets/: keep the data server and the UI apart (share through core/).';
  if (top === 'server' && toTop === 'site')
    return "server/ never imports site/: what the pages and the site's script share lives in core/.";
  if ((top === 'widgets' || top === 'site') && toTop === 'server') return `${top}/ never imports server/.`;
  if (top === 'widgets' && toTop === 'widgets' && from.length > 2 && to.length > 2 && second !== toSecond) {
    if (second === 'lib') return 'widgets/lib/ is shared by every element and never imports an element.';
    if (toSecond !== 'lib')
      return "An element folder never imports another element's folder: share through widgets/lib/.";
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const imports = {
  meta: {
    type: 'problem',
    schema: [],
    docs: { description: "the house's import rules between the top-level folders" },
  },
  create(context) {
    const file = context.filename;
    const from = parts(file);
    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const spec = source.value;
      if (!spec.startsWith('./') && !spec.startsWith('../')) return;
      const to = parts(join(dirname(file), spec));
      const why = houseRuleBroken(from, to);
      if (why) context.report({ node: source, message: why });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(/** @type {import('estree').Node} */ (node.source)),
    };
  },
};

export const house = { rules: { imports } };
