import r2wc from '@r2wc/react-to-web-component';
import {
  Component,
  createContext,
  useContext,
  useDeferredValue,
  useInsertionEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import type { Translate } from '../../core/translate.ts';
import {
  parseAttributes,
  camelCase,
  type AttrError,
  type AttrSchema,
  type AttrSpec,
  type AttrValues,
} from './attributes.ts';
import { resolveApiConfig, resolveSiteBase, type ApiConfig } from './config.ts';
import { defineOnce } from './define.ts';
import { addTexts, langEpoch, langOf, langReady, langsLoaded, translator, watchLang } from './i18n.ts';
import { adoptSheet, baseCss, sheetFor, utilitiesSheet } from './styles.ts';
import { createToaster, ToastRegion, type Toaster } from './toast.tsx';
import { DEFAULT_LANG, type Lang } from '../../core/lang.ts';
import { RECORD_ID } from '../../core/protocol/inquiry.ts';

/** Attributes every element understands. */
export const commonAttributes = {
  /** Base URL of the data backend (a Supabase project or our server). Defaults to the build setting, else the origin the script came from. */
  'api-url': { type: 'url' },
  /** Public anonymous key of the backend. */
  'api-key': { type: 'string', maxLength: 4096 },
  /** Where the site lives (listing pages, agent profiles, the header's links), for an element on another site. Defaults to the build setting, else the data backend's origin. */
  'base-url': { type: 'url' },
  /** The lead's owner: the agent whose website this is (one of ours, by id). The inquiries and alert requests sent from this element go to that agent (docs/leads.md). */
  'lead-agent-id': { type: 'string', maxLength: 15, format: { test: (v) => RECORD_ID.test(v), example: '12' } },
} as const satisfies AttrSchema;

export interface ElementContextValue {
  host: HTMLElement;
  shadowRoot: ShadowRoot;
  lang: Lang;
  t: Translate;
  api: ApiConfig;
  /** the site's base URL, for links to its pages (no trailing slash) */
  site: string;
  toaster: Toaster;
  /** the lead's owner (`lead-agent-id`), sent with every inquiry and alert request */
  leadAgentId: string | undefined;
}

const ElementContext = createContext<ElementContextValue | null>(null);

/** Everything an element's component needs from its host: language, translations, backend, toasts. */
export function useElement(): ElementContextValue {
  const value = useContext(ElementContext);
  if (!value) throw new Error('useElement() outside an exp- element');
  return value;
}

/**
 * A component's own CSS (what utilities cannot say), adopted into the shadow root of whichever
 * element renders the component, before it paints. An element never lists its children's CSS.
 */
export function useStyles(css: string): void {
  const { shadowRoot } = useElement();
  useInsertionEffect(() => adoptSheet(shadowRoot, sheetFor(css)), [shadowRoot, css]);
}

export type ElementProps<S extends AttrSchema> = AttrValues<S & typeof commonAttributes>;

export interface ElementDefinition<S extends AttrSchema> {
  tag: `exp-${string}`;
  attributes: S;
  component: ComponentType<ElementProps<S>>;
  /** the element's own CSS (its :host rules); the components it renders bring theirs (useStyles) */
  styles?: readonly string[];
  /** the utilities of the classes the element's files use: `virtual:exp-utilities/<element>` (scripts/widget-styles.ts) */
  utilities: string;
  /** the texts the element's files use: `virtual:exp-texts/<element>` (scripts/widget-texts.ts) */
  texts: Parameters<typeof addTexts>[0];
  /** inline-level elements (a language switch in a header) */
  inline?: boolean;
  /**
   * The height the element holds while it starts (a CSS length), for elements that end up tall:
   * between the tag being defined and the component's first commit (a background render) the
   * shadow root would otherwise be empty, and whatever follows on the page would jump up into
   * view and back down (layout shift).
   */
  reserve?: string;
}

interface AutoloaderLike {
  observe(root: ParentNode): void;
}

/**
 * The autoloader of the entry bundle, when present (widgets/index.ts keeps it on the class of
 * <exp-autoloader>): it also loads the exp- tags that our shadow roots render.
 */
function autoloader(): AutoloaderLike | undefined {
  return (customElements.get('exp-autoloader') as { autoloader?: AutoloaderLike } | undefined)?.autoloader;
}

const warned = new Set<string>();

function reportAttributeErrors(tag: string, errors: AttrError[]): void {
  for (const e of errors) {
    const id = `${tag}|${e.attribute}|${e.value}`;
    if (warned.has(id)) continue;
    warned.add(id);
    console.warn(
      `[${tag}] invalid ${e.attribute}="${e.value}" (expected ${e.expected}${Object.keys(e.params).length ? ' ' + JSON.stringify(e.params) : ''}); using the default.`,
    );
  }
}

class ErrorBoundary extends Component<{ children: ReactNode; t: Translate; tag: string }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(`[${this.props.tag}]`, error, info.componentStack);
  }
  override render() {
    const { t } = this.props;
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="p-4 rounded-brand border border-line bg-surface text-ink" part="error">
        <p className="m-0 font-semibold">{t('errors.somethingWentWrong')}</p>
        <p className="m-0 mt-1 text-sm text-ink-muted">{t('errors.unexpected')}</p>
        <button
          type="button"
          className="mt-3 px-3 py-1.5 rounded-md bg-primary text-primary-contrast text-sm cursor-pointer"
          onClick={() => this.setState({ failed: false })}
        >
          {t('common.tryAgain')}
        </button>
      </div>
    );
  }
}

function AttributeErrors({ errors, t, tag }: { errors: AttrError[]; t: Translate; tag: string }) {
  if (!errors.length) return null;
  return (
    <div
      role="alert"
      part="attribute-errors"
      className="mb-3 px-3 py-2 rounded-md border border-danger text-danger bg-surface text-sm"
    >
      {errors.map((e) => (
        <p key={e.attribute} className="m-0">
          {t('attributes.invalid', { tag, attribute: e.attribute, value: e.value })}{' '}
          {t(`attributes.${e.expected}`, e.params)}
        </p>
      ))}
    </div>
  );
}

/**
 * Turns a React component into a custom element: open shadow root with our base sheet, the shared
 * twind sheet and any extra CSS; typed, validated attributes; language that follows `lang` live;
 * an error boundary; a toast region. Defined once even if the bundle is loaded twice.
 */
export function defineElement<S extends AttrSchema>(def: ElementDefinition<S>): void {
  if (typeof customElements === 'undefined' || customElements.get(def.tag)) return;
  void addTexts(def.texts);
  const schema = { ...commonAttributes, ...def.attributes } as S & typeof commonAttributes;
  const names = Object.keys(schema);
  const Inner = def.component;

  function Host({ container }: { container?: ShadowRoot }) {
    useSignals();
    const shadowRoot = container as ShadowRoot;
    const host = shadowRoot.host as HTMLElement;
    // reading the signals subscribes this element to every `lang` change in the page and to the
    // arrival of a language's texts
    void langEpoch.value;
    void langsLoaded.value;
    const wanted = langOf(host);
    // a language whose texts are still on their way: the element keeps the language it shows (or,
    // at its start, keeps waiting), then switches once they are here
    const [shown, setShown] = useState<Lang | null>(null);
    const have = langReady(wanted);
    if (have && shown !== wanted) setShown(wanted);
    const lang = have ? wanted : (shown ?? DEFAULT_LANG);
    const t = useMemo(() => translator(lang), [lang]);
    const snapshot = names.map((n) => host.getAttribute(n)).join('\u0000');
    const { values, errors } = useMemo(() => parseAttributes(schema, (n) => host.getAttribute(n)), [snapshot]); // eslint-disable-line react-hooks/exhaustive-deps
    const api = useMemo(
      () => resolveApiConfig({ apiUrl: values.apiUrl, apiKey: values.apiKey }),
      [values.apiUrl, values.apiKey],
    );
    const site = useMemo(() => resolveSiteBase(values.baseUrl, api), [values.baseUrl, api]);
    const [toaster] = useState(createToaster);
    const leadAgentId = values.leadAgentId as string | undefined;
    const context = useMemo<ElementContextValue>(
      () => ({ host, shadowRoot, lang, t, api, site, toaster, leadAgentId }),
      [host, shadowRoot, lang, t, api, site, toaster, leadAgentId],
    );
    if (errors.length) reportAttributeErrors(def.tag, errors);
    // the component's first render runs as a background (time-sliced) update, also when it waits for
    // its language's texts: a page with several elements never blocks the main thread for long. Their
    // arrival is a signal, which React renders at once and whole (useSignals is a
    // useSyncExternalStore), so the component is memoised: it renders again for its attributes and
    // its context (its language), not for another element's texts (docs/benchmarks.md, "Measured apart")
    const ready = useDeferredValue(have || shown !== null, false);
    const inner = useMemo(() => <Inner {...(values as ElementProps<S>)} />, [values]);
    useLayoutEffect(() => {
      for (const child of [...shadowRoot.children]) if (child.hasAttribute('data-exp-placeholder')) child.remove();
    }, [shadowRoot]);
    return (
      <ElementContext.Provider value={context}>
        <div className={def.inline ? 'exp-root exp-inline' : 'exp-root'} part="root" lang={lang}>
          <AttributeErrors errors={errors} t={t} tag={def.tag} />
          {ready ? (
            <ErrorBoundary t={t} tag={def.tag}>
              {inner}
            </ErrorBoundary>
          ) : // until then, what the page put inside the element (a server-rendered listing) stays
          // shown, in the space the element will take
          def.reserve ? (
            <div style={{ display: 'block', minHeight: def.reserve }}>
              <slot />
            </div>
          ) : (
            <slot />
          )}
        </div>
        <div className="exp-root exp-overlay" lang={lang}>
          <ToastRegion toaster={toaster} t={t as (key: string, params?: Record<string, unknown>) => string} />
        </div>
      </ElementContext.Provider>
    );
  }

  const props = Object.fromEntries(names.map((n) => [camelCase(n), 'string'])) as Record<string, 'string'>;
  const Base = r2wc(Host, { shadow: 'open', props }) as unknown as new () => HTMLElement & {
    connectedCallback(): void;
    disconnectedCallback(): void;
  };
  const render = Symbol.for('r2wc.render');
  const extra = [baseCss, ...(def.styles ?? [])];

  class ExpElement extends Base {
    constructor() {
      super();
      const root = this.shadowRoot as ShadowRoot;
      root.adoptedStyleSheets = [...extra.map(sheetFor), utilitiesSheet(def.utilities)];
      // a shadow root hides the element's own content: show it until React's first commit, which
      // removes this slot (a server-rendered page must not blank out and jump while the element starts)
      if (!root.firstChild) {
        const slot = document.createElement('slot');
        const placeholder = def.reserve ? document.createElement('div') : slot;
        placeholder.dataset.expPlaceholder = '';
        if (def.reserve) {
          placeholder.style.cssText = `display:block;min-height:${def.reserve}`;
          placeholder.append(slot);
        }
        root.append(placeholder);
      }
      watchLang(root);
      autoloader()?.observe(root);
    }
    // r2wc skips empty and removed attributes; we re-read all of them on every change instead
    attributeChangedCallback() {
      if (this.isConnected) (this as unknown as Record<symbol, () => void>)[render]?.();
    }
  }
  if (typeof document !== 'undefined') watchLang(document);
  defineOnce(def.tag, ExpElement);
}

export type { AttrSpec };
