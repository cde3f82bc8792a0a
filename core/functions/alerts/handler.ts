/**
 * saved-searches, as one Fetch-style handler (Request -> Response) that the deployed Deno function
 * and our Node server both run (docs/decisions.md #23). Two kinds of call, both POSTed JSON:
 *
 * - `{ action: 'subscribe', email, filters, frequency, lang, idempotencyKey?, website? }`: a
 *   request for alerts; or with `market: { place, typeGroup }` instead of filters, a place's
 *   monthly market report (docs/market.md "Follow a market"), for a place the index has. Validated; rate limited per client; a filled honeypot is told "ok" and
 *   never mailed; the same request twice (or the same address and search) makes one saved search;
 *   confirmation mails are capped per address and per client a day (store.ts CONFIRM_MAILS).
 *   A new request gets only a confirmation mail (double opt-in). The answer is the same whether the
 *   address already had this alert or not, so it tells nobody who subscribes to what.
 * - `{ action: 'confirm' | 'manage' | 'update' | 'unsubscribe', token, ... }`: what a link in a mail
 *   does (./link-actions.ts). 404 for a token we never issued, 410 for an expired one or a search that is gone; a used
 *   one answers what it did (`already: true`), never an error. `{ action: 'view', token }` changes
 *   nothing: what the link's page shows before the visitor acts (a mail scanner that opens links
 *   confirms or unsubscribes nothing).
 */
import type { HomeFollow, MarketFollow } from '../../protocol/alerts.ts';
import { parseEstimate, type HomeFacts } from '../../protocol/valuation.ts';
import { estimateHome } from '../valuation.ts';
import { enqueueMail } from '../outbox/store.ts';
import {
  clientSalt,
  hashClient,
  refused,
  refusedField,
  serveActions,
  type ClientPolicy,
  type Outcome,
} from '../function-http.ts';
import { derivedKey, headerKey, overLimit } from '../request-key.ts';
import { UNKNOWN_CLIENT } from '../client-address.ts';
import type { Sql, TransactionalSql } from '../sql.ts';
import {
  byIdempotencyKey,
  CONFIRM_MAILS,
  confirmMailsToday,
  extendPending,
  insertSearch,
  RESEND_MINUTES,
  sameSearch,
} from './store.ts';
import { leadOwner } from '../inquiry/store.ts';
import { giveConsents, type Texts } from '../privacy/consents.ts';
import { filtersKey } from '../../protocol/filters.ts';
import { checkedOrigin } from '../../protocol/attribution.ts';
import { ALERT_LIMITS, emailKey, validateAlertRequest } from './validate.ts';
import { now as clockNow } from '../../clock.ts';
import { linkAction } from './link-actions.ts';

export interface AlertsConfig extends ClientPolicy {
  /** receives one notice per newly confirmed search (a lead), unless it has a lead owner */
  teamInbox: string;
  /** the deployment's lead owner when an element names none (LEAD_AGENT_ID; docs/leads.md) */
  leadAgentId?: string | undefined;
}

export interface AlertsDeps {
  sql: TransactionalSql;
  config: AlertsConfig;
  /** the locale files' texts: a home report's consent is kept in the words of its box */
  texts: Texts;
  /** a mail was queued: deliver it now */
  onQueued?: () => void;
  isUnavailable?: (error: unknown) => boolean;
}

/** The place's report as a follow keeps it, or null when our index has no report of it. */
async function marketFollow(
  sql: Sql,
  place: string,
  typeGroup: MarketFollow['type_group'],
): Promise<MarketFollow | null> {
  const rows = await sql.query<{ name: string }>(
    'select name from internal.market_index where path = $1 and type_group = $2 order by month desc limit 1',
    [place, typeGroup],
  );
  return rows[0] ? { place, type_group: typeGroup, name: rows[0].name } : null;
}

const ACTIONS = ['subscribe', 'view', 'confirm', 'manage', 'update', 'unsubscribe'] as const;
type Action = (typeof ACTIONS)[number];

export function createAlertsHandler(deps: AlertsDeps) {
  const { config } = deps;

  async function subscribe(raw: unknown, request: Request, clientAddress: string): Promise<Outcome> {
    // what is kept of the Origin header: a checked origin, or nothing (core/protocol/attribution.ts)
    const origin = checkedOrigin(request.headers.get('origin'));
    const checked = validateAlertRequest(raw, origin);
    if (!checked.ok) return refused(checked.fields, checked.message);
    const input = checked.value;
    const spam = input.website.trim() !== '';
    const fromHeader = headerKey(request);
    if (fromHeader === 'invalid') return refusedField('idempotencyKey');
    const clientHash = await hashClient(clientAddress, await clientSalt(deps.sql, config.hashSalt));
    const key =
      input.idempotencyKey ??
      fromHeader ??
      (await derivedKey(clientHash, [
        input.email,
        input.filters,
        input.frequency,
        input.lang,
        input.market,
        input.home,
      ]));
    const asker = { clientHash, known: clientAddress !== UNKNOWN_CLIENT, email: emailKey(input.email) };
    // refused before any work is done for it (the estimate below is the costly part): a retry is
    // answered as the first time, a client over its limit waits
    const first = await deps.sql.transaction(async (tx) =>
      (await byIdempotencyKey(tx, key))
        ? 'again'
        : (await overLimit(tx, 'alerts', asker, config.rateLimit))
          ? 'limited'
          : 'go',
    );
    if (first === 'again') return { status: 200, body: { ok: true } };
    if (first === 'limited')
      return {
        status: 429,
        body: { error: 'rate_limited', message: 'Too many requests from this client; try again in a minute.' },
      };
    // a home report: facts the estimate takes (it names the field it refuses), and the place it
    // found; a bot's (the honeypot filled) is kept as asked, never estimated
    const made = input.home && !spam ? await estimateHome(deps.sql, input.home) : null;
    if (made && 'field' in made) return refusedField(`home.${made.field}`);
    const home: HomeFollow | null =
      input.home && (made || spam)
        ? { facts: input.home as unknown as HomeFacts, place: made ? parseEstimate(made.estimate).place : null }
        : null;
    return deps.sql.transaction(async (tx) => {
      // one client at a time: the count and the insert must not interleave with its other requests
      const limited = await overLimit(tx, 'alerts', asker, config.rateLimit);
      if (await byIdempotencyKey(tx, key)) return { status: 200, body: { ok: true } };
      if (limited) {
        return {
          status: 429,
          body: { error: 'rate_limited', message: 'Too many requests from this client; try again in a minute.' },
        };
      }
      // the lead's owner: the element's, one of ours or refused; else the deployment's, if it is one of ours
      const owner = input.leadAgentId
        ? await leadOwner(tx, input.leadAgentId)
        : config.leadAgentId
          ? await leadOwner(tx, config.leadAgentId)
          : null;
      if (input.leadAgentId && !owner) return refusedField('leadAgentId', 'not one of our agents');
      // a market follow: a place our index has a report of, by the index's name for it
      const market = input.market ? await marketFollow(tx, input.market.place, input.market.typeGroup) : null;
      if (input.market && !market) return refusedField('market', 'no market report for this place');
      const record = {
        email: input.email,
        emailKey: emailKey(input.email),
        filters: input.filters,
        filtersKey: market
          ? `market:${market.place}:${market.type_group}`
          : home
            ? `home:${JSON.stringify(home.facts, Object.keys(home.facts).sort())}`
            : filtersKey(input.filters),
        market,
        home,
        frequency: input.frequency,
        lang: input.lang,
        idempotencyKey: key,
        clientHash,
        spam,
        origin: origin ?? '',
        userAgent: request.headers.get('user-agent') ?? '',
        leadAgentId: owner?.agentId ?? null,
        source: input.source,
      };
      if (spam) {
        await insertSearch(tx, record);
        return { status: 200, body: { ok: true } };
      }
      // one address and one search make one saved search, however often it is asked for
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`alerts:${record.emailKey}`]);
      // how many confirmation mails this address and this client had today (CONFIRM_MAILS)
      const today = await confirmMailsToday(tx, record.emailKey, clientHash);
      if (today.client >= CONFIRM_MAILS.client) {
        return {
          status: 429,
          body: {
            error: 'rate_limited',
            message: 'Too many alert requests from this client today; try again tomorrow.',
          },
          retryAfter: 3600,
        };
      }
      const mayMail = today.address < (today.proven ? CONFIRM_MAILS.provenAddress : CONFIRM_MAILS.unprovenAddress);
      const same = await sameSearch(tx, record.emailKey, record.filtersKey);
      if (same) {
        // a request still waiting for its confirmation: its mail may be lost, send another (not in a burst)
        const sentAt = same.confirm_sent_at ? new Date(same.confirm_sent_at).getTime() : 0;
        if (same.status === 'pending' && mayMail && clockNow() - sentAt > RESEND_MINUTES * 60_000) {
          await extendPending(tx, same.id);
          await enqueueMail(tx, { kind: 'alert-confirm', refId: `${same.id}:${clockNow()}`, recipient: same.email });
          return { status: 200, body: { ok: true }, queued: true };
        }
        return { status: 200, body: { ok: true } };
      }
      const id = await insertSearch(tx, record);
      // a home report is mail she consented to: kept with its words (docs/privacy.md "Consents")
      if (home)
        await giveConsents(tx, {
          email: input.email,
          searchId: id,
          purposes: ['home_report'],
          lang: input.lang,
          page: input.source?.page ?? null,
          texts: deps.texts,
        });
      // the same answer either way: it tells nobody what an address was sent
      if (!mayMail) return { status: 200, body: { ok: true } };
      // the only mail an address gets before it confirms
      await enqueueMail(tx, { kind: 'alert-confirm', refId: id, recipient: input.email });
      return { status: 200, body: { ok: true }, queued: true };
    });
  }

  return serveActions<Action, { clientAddress: string }>(
    {
      tag: 'saved-searches',
      allowedOrigins: config.allowedOrigins,
      maxBytes: ALERT_LIMITS.body,
      actions: ACTIONS,
      defaultAction: 'subscribe',
      unavailableMessage: 'Nothing was saved right now. Please try again.',
      retryAfter: config.rateLimit.windowSeconds,
      onQueued: deps.onQueued,
      isUnavailable: deps.isUnavailable,
    },
    (action, body, request, context) =>
      action === 'subscribe' ? subscribe(body, request, context.clientAddress) : linkAction(deps, body, action),
  );
}
