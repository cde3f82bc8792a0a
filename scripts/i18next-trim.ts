/**
 * Two parts of i18next that the elements' one instance never runs, replaced at build time in the
 * widgets' runtime chunk by small classes that do what that instance asks of them (about 2 KB gzip
 * of every page's runtime; docs/benchmarks.md "Measured apart"). i18next stays the engine
 * (docs/decisions.md #25); the server, the mails and the tests run it whole.
 *  - The formatter (`{{price, number}}`, `{{date, datetime}}`, Intl's formats by name): our texts
 *    have no formats, since the numbers and dates are written by core/protocol/format.ts before they
 *    are given (a unit test holds the locale files to that). One that ever used one fails loudly.
 *  - The backend connector (loading texts over the network through a backend plugin, queues and
 *    retries): the instance is given its texts (core/translate.ts), later ones are added as resource
 *    bundles (widgets/lib/i18n.ts), and no backend is ever used, so loading is always already done.
 * i18next's constructor makes both whatever the options, so the bundler cannot drop them: the cut
 * is made on its source text, between two declarations each. A version of i18next that moves one
 * fails the build here (and scripts/i18next-trim.test.ts), never silently.
 */
import type { Plugin } from 'vite';

interface Cut {
  name: string;
  /** the first line of what is replaced, and the first line after it, as in i18next's ESM build */
  from: string;
  to: string;
  stub: string;
}

export const I18NEXT_CUTS: Cut[] = [
  {
    name: 'formatter',
    from: 'const parseFormatStr = formatStr => {',
    to: 'const removePending = (q, name) => {',
    stub: `class Formatter {
  init() {}
  add() {}
  addCached() {}
  format(value, format) {
    if (!format) return value;
    throw new Error('i18next formats are not bundled with the exp- elements (scripts/i18next-trim.ts): {{x, ' + format + '}}');
  }
}
`,
  },
  {
    name: 'backend-connector',
    from: 'class Connector extends EventEmitter {',
    to: 'const get = () => ({',
    stub: `class Connector extends EventEmitter {
  constructor(backend) {
    super();
    if (backend) throw new Error('i18next backends are not bundled with the exp- elements (scripts/i18next-trim.ts)');
    this.state = {};
  }
  load(languages, namespaces, callback) { callback?.(null); }
  reload(languages, namespaces, callback) { callback?.(null); }
}

`,
  },
];

/** i18next's ESM build with the cuts made; throws if a cut's lines are not there exactly once. */
export function trimI18next(code: string): string {
  let out = code;
  for (const cut of I18NEXT_CUTS) {
    const start = out.indexOf(`\n${cut.from}\n`);
    const end = out.indexOf(`\n${cut.to}\n`, start + 1);
    if (start < 0 || end < 0 || out.indexOf(`\n${cut.from}\n`, start + 1) >= 0)
      throw new Error(`scripts/i18next-trim.ts: i18next no longer has "${cut.from}" ... "${cut.to}" (${cut.name})`);
    out = `${out.slice(0, start + 1)}${cut.stub}${out.slice(end + 1)}`;
  }
  return out;
}

/** The widgets' build: i18next's ESM build, trimmed. */
export function i18nextTrim(): Plugin {
  return {
    name: 'exp-i18next-trim',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]i18next[\\/]dist[\\/]esm[\\/]i18next\.js$/.test(id)) return undefined;
      return { code: trimI18next(code), map: null };
    },
  };
}
