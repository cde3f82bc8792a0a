/**
 * privacy: a visitor's data on her request (docs/privacy.md), as one Fetch-style handler that the
 * deployed Deno function and our Node server both run. Every call is a POSTed JSON `{ action, ... }`:
 *
 * - `ask` (`email`, `lang`, `website`: the honeypot): if we keep anything about the address, a
 *   single-use link is mailed to it (at most LINKS_A_DAY a day); the answer is the same for an
 *   address we do not know, one over its limit or a bot's, so it tells nobody who is in our files.
 *   Rate limited per client.
 * - `open` (`token`: the mailed link's): uses the link (a second open is `expired`) and answers what
 *   we keep about the address, with a `session` for the next steps (SESSION_MINUTES). The request is
 *   answered then (the law's 15 days: at once).
 * - `view`, `correct` (`name`, `phone`) and `erase` (`session`): show again, correct her name and
 *   phone wherever they are kept, or erase her (internal.erase_person: her leads without her, her
 *   saved searches gone, mails and webhooks without her, the agents and the team told, lead.erased
 *   to the CRM). After an erasure the session is gone with the address.
 * - `consent` (`token`: a withdrawal link's) shows the consent it names; `withdraw` (`token`, or
 *   `session` and `consent`: one of hers by id) withdraws it (docs/privacy.md "Consents": a home
 *   report unsubscribed, consent.withdrawn to the CRM). A withdrawal link never expires; withdrawing
 *   twice is `already`.
 *
 * 404 for a token or session never issued, 410 for an expired or used one.
 */
import {
  clientSalt,
  hashClient,
  refusedField,
  serveActions,
  type ClientPolicy,
  type Outcome,
} from '../function-http.ts';
import { overLimit } from '../request-key.ts';
import { UNKNOWN_CLIENT } from '../client-address.ts';
import { enqueueMail } from '../outbox/store.ts';
import type { Sql, TransactionalSql } from '../sql.ts';
import { TOKEN } from '../alerts/tokens.ts';
import { checkContact, EMAIL_PATTERN, LIMITS } from '../../protocol/inquiry.ts';
import { isLang } from '../../lang.ts';
import { byConsentToken, personConsent, withdrawConsent } from './consents.ts';
import {
  answered,
  byPrivacyToken,
  correctPerson,
  erasePerson,
  insertRequest,
  issuePrivacyToken,
  LINKS_A_DAY,
  linksToday,
  personData,
  personKnown,
  useToken,
  type PrivacyRequest,
} from './store.ts';

export interface PrivacyConfig extends ClientPolicy {
  /** told of every erasure (no name in it) */
  teamInbox: string;
}

export interface PrivacyDeps {
  sql: TransactionalSql;
  config: PrivacyConfig;
  /** a mail was queued: deliver it now */
  onQueued?: () => void;
  isUnavailable?: (error: unknown) => boolean;
}

const ACTIONS = ['ask', 'open', 'view', 'correct', 'erase', 'consent', 'withdraw'] as const;
type Action = (typeof ACTIONS)[number];

const isOutcome = (x: PrivacyRequest | Outcome): x is Outcome => typeof x.status === 'number';
const NOT_VALID: Outcome = { status: 404, body: { error: 'invalid_token', message: 'This link is not valid.' } };
const EXPIRED: Outcome = {
  status: 410,
  body: { error: 'expired', message: 'This link has expired or was used: ask for a new one.' },
};

export function createPrivacyHandler(deps: PrivacyDeps) {
  const { config } = deps;

  async function ask(raw: Record<string, unknown>, clientAddress: string): Promise<Outcome> {
    const email = typeof raw.email === 'string' ? raw.email.trim() : '';
    if (!email || email.length > LIMITS.email || !EMAIL_PATTERN.test(email)) return refusedField('email');
    const lang = isLang(raw.lang) ? raw.lang : 'es';
    const clientHash = await hashClient(clientAddress, await clientSalt(deps.sql, config.hashSalt));
    return deps.sql.transaction(async (tx) => {
      if (
        await overLimit(
          tx,
          'privacy',
          { clientHash, known: clientAddress !== UNKNOWN_CLIENT, email: email.toLowerCase() },
          config.rateLimit,
        )
      )
        return {
          status: 429,
          body: { error: 'rate_limited', message: 'Too many requests from this client; try again in a minute.' },
        };
      // a bot's (the honeypot filled), an address we keep nothing about, or one mailed enough today: counted, not mailed
      const mayMail = typeof raw.website !== 'string' || raw.website.trim() === '';
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`privacy:${email.toLowerCase()}`]);
      const mail = mayMail && (await linksToday(tx, email)) < LINKS_A_DAY && (await personKnown(tx, email));
      const id = await insertRequest(tx, { kind: 'access', email: mail ? email : null, lang, clientHash });
      if (mail) await enqueueMail(tx, { kind: 'privacy-link', refId: id, recipient: email });
      return { status: 200, body: { ok: true }, queued: mail };
    });
  }

  /** The request a link or a session opens, or why not. */
  async function opened(
    tx: Sql,
    raw: Record<string, unknown>,
    purpose: 'open' | 'session',
  ): Promise<PrivacyRequest | Outcome> {
    const given = raw[purpose === 'open' ? 'token' : 'session'];
    const token = typeof given === 'string' ? given.trim() : '';
    if (!TOKEN.test(token)) return NOT_VALID;
    const found = await byPrivacyToken(tx, token, purpose);
    if (found === 'unknown') return NOT_VALID;
    if (found === 'expired') return EXPIRED;
    if (purpose === 'open') await useToken(tx, token);
    return found;
  }

  /** A withdrawal link's consent: shown, or withdrawn (once). */
  async function byLink(action: 'consent' | 'withdraw', raw: Record<string, unknown>): Promise<Outcome> {
    const token = typeof raw.token === 'string' ? raw.token.trim() : '';
    if (!TOKEN.test(token)) return NOT_VALID;
    return deps.sql.transaction(async (tx) => {
      const consent = await byConsentToken(tx, token);
      if (!consent) return NOT_VALID;
      if (action === 'consent') return { status: 200, body: { ok: true, consent } };
      const now = await withdrawConsent(tx, consent.id, 'link');
      return {
        status: 200,
        body: { ok: true, already: !now, consent: (await byConsentToken(tx, token)) ?? consent },
        queued: now,
      };
    });
  }

  async function withToken(action: Exclude<Action, 'ask' | 'consent'>, raw: Record<string, unknown>): Promise<Outcome> {
    const name = typeof raw.name === 'string' ? raw.name.trim() : '';
    const phone = typeof raw.phone === 'string' ? raw.phone.trim() : '';
    return deps.sql.transaction(async (tx) => {
      const request = await opened(tx, raw, action === 'open' ? 'open' : 'session');
      if (isOutcome(request)) return request;
      // her name and phone by the rules every form's contact has (core/protocol/inquiry.ts)
      const wrong = action === 'correct' ? checkContact({ name, email: request.email, phone, message: '' }) : {};
      if (wrong.name) return refusedField('name');
      if (wrong.phone) return refusedField('phone');
      if (action === 'open') {
        await answered(tx, request.id);
        const session = await issuePrivacyToken(tx, request.id, 'session');
        return {
          status: 200,
          body: { ok: true, session, lang: request.lang, data: await personData(tx, request.email) },
        };
      }
      if (action === 'correct') {
        const rows = await correctPerson(tx, request.email, name, phone || null);
        await tx.query(
          "insert into internal.privacy_requests (kind, answered_at, outcome) values ('correction', internal.now(), jsonb_build_object('rows', $1::int))",
          [rows],
        );
      }
      if (action === 'withdraw') {
        const consent = await personConsent(
          tx,
          request.email,
          typeof raw.consent === 'string' || typeof raw.consent === 'number' ? String(raw.consent) : '',
        );
        if (!consent) return refusedField('consent');
        const now = await withdrawConsent(tx, consent.id, 'my-data');
        return {
          status: 200,
          body: { ok: true, already: !now, lang: request.lang, data: await personData(tx, request.email) },
          queued: now,
        };
      }
      if (action === 'erase') {
        const done = await erasePerson(tx, request.email, request.id, config.teamInbox);
        return { status: 200, body: { ok: true, erased: done }, queued: true };
      }
      return { status: 200, body: { ok: true, lang: request.lang, data: await personData(tx, request.email) } };
    });
  }

  return serveActions<Action, { clientAddress: string }>(
    {
      tag: 'privacy',
      allowedOrigins: config.allowedOrigins,
      maxBytes: 4096,
      actions: ACTIONS,
      unavailableMessage: 'Nothing was changed right now. Please try again.',
      retryAfter: config.rateLimit.windowSeconds,
      onQueued: deps.onQueued,
      isUnavailable: deps.isUnavailable,
    },
    (action, raw, _request, context) =>
      action === 'ask'
        ? ask(raw, context.clientAddress)
        : action === 'consent' || (action === 'withdraw' && raw.session === undefined)
          ? byLink(action, raw)
          : withToken(action, raw),
  );
}
