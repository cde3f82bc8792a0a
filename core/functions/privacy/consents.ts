/**
 * A visitor's consents as the functions keep them (supabase/schemas/54_consents.sql, docs/privacy.md
 * "Consents"): stored with the request they came with, in the words of the box she ticked (the
 * locale files' `consent.<purpose>`, in her language), under the notice's version, with the page;
 * withdrawn in one click by a link whose token is kept as its SHA-256 only. Plain SQL over any
 * client; the inquiry, saved-searches and privacy functions call it.
 */
import { hashToken, newToken } from '../alerts/tokens.ts';
import type { Sql } from '../sql.ts';
import type { Lang } from '../../lang.ts';
import { localizedPath } from '../../routes.ts';
import { translatorFor, type Dict } from '../../translate.ts';
import { CONSENT_PATH, PRIVACY_NOTICE, type ConsentPurpose } from '../../protocol/privacy.ts';

/** A consent as it is stored and told (internal.consent_json). */
export interface Consent extends Record<string, unknown> {
  id: number;
  purpose: ConsentPurpose;
  text: string;
  lang: Lang;
  notice_version: string;
  page: string | null;
  given_at: string;
  withdrawn_at: string | null;
  withdrawn_via: 'link' | 'my-data' | 'unsubscribe' | null;
}

/** The texts of both languages, as the functions are given them. */
export type Texts = (lang: Lang) => Dict;

/** Stores what she ticked, each purpose on its own, with the request it came with. */
export async function giveConsents(
  sql: Sql,
  given: {
    email: string;
    inquiryId?: string | null;
    searchId?: string | null;
    purposes: readonly ConsentPurpose[];
    lang: Lang;
    page: string | null;
    texts: Texts;
  },
): Promise<Consent[]> {
  if (!given.purposes.length) return [];
  const t = translatorFor(given.texts(given.lang), given.lang);
  return sql
    .query<Consent>(
      `insert into internal.consents as c (purpose, email, inquiry_id, search_id, text, lang, notice_version, page)
     select p.purpose, $1, $2::uuid, $3::bigint, p.text, $4, $5, nullif($6, '')
       from unnest($7::text[], $8::text[]) as p (purpose, text)
     returning internal.consent_json(c) as consent`,
      [
        given.email,
        given.inquiryId ?? null,
        given.searchId ?? null,
        given.lang,
        PRIVACY_NOTICE.version,
        given.page ?? '',
        given.purposes,
        given.purposes.map((p) => t(`consent.${p}`)),
      ],
    )
    .then((rows) => rows.map((r) => r.consent as unknown as Consent));
}

/** A new one-click link that withdraws the consent (its token kept hashed; the link works while the consent is kept). */
export async function withdrawLink(sql: Sql, consentId: number | string, siteUrl: string, lang: Lang): Promise<string> {
  const token = newToken();
  await sql.query('insert into internal.consent_tokens (token_hash, consent_id) values ($1, $2::bigint)', [
    await hashToken(token),
    String(consentId),
  ]);
  return `${siteUrl.replace(/\/+$/, '')}${localizedPath(CONSENT_PATH, lang)}?token=${token}`;
}

/**
 * The consents as a webhook carries them: what she read and when, each with the link that
 * withdraws it, for the CRM's own mails that rely on it (no site address: no link).
 */
export async function consentsForWebhook(
  sql: Sql,
  consents: Consent[],
  siteUrl: string | undefined,
): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (const c of consents) {
    const { id: _id, withdrawn_at: _w, withdrawn_via: _v, ...told } = c;
    out.push({ ...told, withdraw_url: siteUrl ? await withdrawLink(sql, c.id, siteUrl, c.lang) : null });
  }
  return out;
}

/** The consent a withdrawal link names, under a lock (two clicks withdraw it once); null for a token never issued or a consent no longer kept. */
export async function byConsentToken(sql: Sql, token: string): Promise<Consent | null> {
  const [row] = await sql.query<{ consent: Consent }>(
    'select internal.consent_json(c) as consent from internal.consent_tokens t join internal.consents c on c.id = t.consent_id where t.token_hash = $1 for update of c',
    [await hashToken(token)],
  );
  return row?.consent ?? null;
}

/** One of this address's consents, by id; null when it is not hers. */
export async function personConsent(sql: Sql, email: string, id: string): Promise<Consent | null> {
  if (!/^\d{1,18}$/.test(id)) return null;
  const [row] = await sql.query<{ consent: Consent }>(
    'select internal.consent_json(c) as consent from internal.consents c where c.id = $1::bigint and internal.mailbox(c.email) = internal.mailbox($2) for update',
    [id, email],
  );
  return row?.consent ?? null;
}

/** Withdraws it (internal.withdraw_consents: a home report unsubscribed, the CRM told); false when it was withdrawn before. */
export async function withdrawConsent(sql: Sql, id: number | string, via: 'link' | 'my-data'): Promise<boolean> {
  const [row] = await sql.query<{ n: number }>('select internal.withdraw_consents(array[$1::bigint], $2) as n', [
    String(id),
    via,
  ]);
  return Number(row?.n ?? 0) > 0;
}
