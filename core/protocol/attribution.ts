/**
 * Where a lead came from (docs/leads.md, "Attribution"), sent by the elements with each inquiry and
 * alert request, kept with it, and carried by its mails and webhooks. Nothing beyond the page's
 * own address: no cookie, no identifier. The page is kept without its query and fragment (they may
 * hold anything, an e-mail address included), its UTM parameters apart; the embedding site's
 * origin is the request's Origin header, which the browser sets and a page cannot. This file is
 * imported by the widgets, our server and the deployed functions.
 */

const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];

export interface Attribution {
  /** the page's address: origin and path */
  page: string;
  /** the element the lead was sent from (exp-property-search, ...) */
  element: string;
  /** the page's UTM parameters, those it has */
  utm: Partial<Record<UtmKey, string>>;
}

const ATTRIBUTION_LIMITS = { page: 500, utm: 200, origin: 300 } as const;

/**
 * The request's Origin header as kept and told (stored, mailed, in webhooks): an http(s) origin as
 * a browser writes it (scheme, host, port; nothing else) of at most 300 characters, else null. A
 * header that is anything else (a forged path, 16 KB of text) is no origin at all.
 */
export function checkedOrigin(header: string | null | undefined): string | null {
  if (!header || header.length > ATTRIBUTION_LIMITS.origin) return null;
  try {
    const url = new URL(header);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === header ? header : null;
  } catch {
    return null;
  }
}

const ELEMENT = /^exp-[a-z][a-z-]{1,40}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The attribution of the page an element is on (the browser's side). */
export function pageAttribution(href: string, element: string): Attribution {
  const url = new URL(href);
  const utm: Partial<Record<UtmKey, string>> = {};
  for (const key of UTM_KEYS) {
    const value = url.searchParams.get(key)?.replace(CONTROL, '').trim();
    if (value) utm[key] = value.slice(0, ATTRIBUTION_LIMITS.utm);
  }
  return { page: `${url.origin}${url.pathname}`.slice(0, ATTRIBUTION_LIMITS.page), element, utm };
}

export type AttributionCheck = { ok: true; value: Attribution | null } | { ok: false };

/**
 * What a request says about its page, checked (the functions' side): null when it says nothing;
 * not ok when it is not what an element sends. The page is kept only on the origin the browser
 * named (the Origin header, checkedOrigin): a request without one (not from a browser), or with a
 * page on another origin (a copied body, a forged one), keeps no page: the element and the
 * campaign are kept, never an address nothing vouched for.
 */
export function checkAttribution(raw: unknown, requestOrigin: string | null): AttributionCheck {
  if (raw === undefined || raw === null) return { ok: true, value: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false };
  const { page, element, utm } = raw as Record<string, unknown>;
  if (typeof element !== 'string' || !ELEMENT.test(element)) return { ok: false };
  if (page !== undefined && (typeof page !== 'string' || page.length > ATTRIBUTION_LIMITS.page)) return { ok: false };
  let kept = '';
  if (typeof page === 'string' && page) {
    let url: URL;
    try {
      url = new URL(page);
    } catch {
      return { ok: false };
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return { ok: false };
    const origin = checkedOrigin(requestOrigin);
    if (origin && url.origin === origin) kept = `${url.origin}${url.pathname}`;
  }
  const checked: Partial<Record<UtmKey, string>> = {};
  if (utm !== undefined) {
    if (!utm || typeof utm !== 'object' || Array.isArray(utm)) return { ok: false };
    for (const [key, value] of Object.entries(utm as Record<string, unknown>)) {
      if (
        !(UTM_KEYS as readonly string[]).includes(key) ||
        typeof value !== 'string' ||
        value.length > ATTRIBUTION_LIMITS.utm ||
        CONTROL.test(value)
      )
        return { ok: false };
      if (value.trim()) checked[key as UtmKey] = value.trim();
    }
  }
  return { ok: true, value: { page: kept, element, utm: checked } };
}
