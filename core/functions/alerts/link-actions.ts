/**
 * saved-searches' links (./handler.ts): what a link in a mail does to its saved search, and what its
 * page shows of it, the address partly hidden.
 */
import {
  ALERT_FREQUENCIES,
  MARKET_FREQUENCY,
  type HomeFollow,
  type MarketFollow,
  type SavedFrequency,
} from '../../protocol/alerts.ts';
import type { FilterArgs } from '../../protocol/filters.ts';
import { nowDate } from '../../clock.ts';
import { enqueueMail } from '../outbox/store.ts';
import type { Sql } from '../sql.ts';
import { leadOwner } from '../inquiry/store.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import type { AlertsDeps } from './handler.ts';
import {
  activate,
  byToken,
  markTokenUsed,
  setFrequency,
  setPaused,
  unsubscribe,
  type SavedSearch,
  type SearchStatus,
} from './store.ts';
import { hashToken, TOKEN } from './tokens.ts';
import { refusedField, type Outcome } from '../function-http.ts';

/** What a link's page shows of a saved search. */
export interface SearchSummary {
  filters: FilterArgs;
  /** a market follow's place, group and name (docs/market.md "Follow a market") */
  market: MarketFollow | null;
  /** a home report's facts and place (docs/valuation.md) */
  home: HomeFollow | null;
  frequency: SavedFrequency;
  status: SearchStatus;
  lang: string;
  /** the address, partly hidden: "an…@example.org" */
  email: string;
}

function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}…@${domain}`;
}

/** A saved search as its webhooks carry it (docs/leads.md). */
const alertData = (s: SavedSearch) => ({
  id: s.id,
  email: s.email,
  filters: s.filters,
  market: s.market,
  home: s.home,
  frequency: s.frequency,
  lang: s.lang,
  lead_agent_id: s.lead_agent_id,
  attribution: { origin: s.origin || null, page: s.page_url, element: s.element, utm: s.utm ?? {} },
});

const summary = (s: SavedSearch): SearchSummary => ({
  filters: s.filters,
  market: s.market,
  home: s.home,
  frequency: s.frequency,
  status: s.status,
  lang: s.lang,
  email: maskEmail(s.email),
});

/**
 * What a link in a mail does (`confirm`, `manage`, `update`, `unsubscribe`) or shows (`view`), by its
 * token: 404 for a token we never issued, 410 for an expired one or a search that is gone; a used
 * one answers what it did (`already: true`).
 */
export async function linkAction(deps: AlertsDeps, raw: Record<string, unknown>, action: string): Promise<Outcome> {
  const { config } = deps;
  const token = typeof raw.token === 'string' ? raw.token.trim() : '';
  if (!TOKEN.test(token)) return { status: 404, body: { error: 'invalid_token', message: 'This link is not valid.' } };
  let frequency: SavedFrequency | undefined;
  let paused: boolean | undefined;
  if (action === 'update') {
    if (raw.frequency !== undefined) {
      if (!([...ALERT_FREQUENCIES, MARKET_FREQUENCY] as readonly unknown[]).includes(raw.frequency))
        return refusedField('frequency');
      frequency = raw.frequency as SavedFrequency;
    }
    if (raw.paused !== undefined) {
      if (typeof raw.paused !== 'boolean') return refusedField('paused');
      paused = raw.paused;
    }
  }
  const hash = await hashToken(token);
  return deps.sql.transaction(async (tx: Sql) => {
    const found = await byToken(tx, hash);
    const allowed: Record<string, string[]> = {
      view: ['confirm', 'manage', 'unsubscribe'],
      confirm: ['confirm'],
      manage: ['manage'],
      update: ['manage'],
      unsubscribe: ['unsubscribe', 'manage'],
    };
    if (!found || !allowed[action]?.includes(found.purpose))
      return { status: 404, body: { error: 'invalid_token', message: 'This link is not valid.' } };
    const s = found.search;
    if (action === 'view')
      return {
        status: 200,
        body: {
          ok: true,
          purpose: found.purpose,
          used: found.used,
          expired: found.expired || s.status === 'expired',
          search: summary(s),
        },
      };
    if (s.status === 'unsubscribed') {
      if (action === 'unsubscribe') return { status: 200, body: { ok: true, already: true, search: summary(s) } };
      return { status: 410, body: { error: 'unsubscribed', message: 'This alert was deleted.', search: summary(s) } };
    }
    if (found.expired || s.status === 'expired')
      return { status: 410, body: { error: 'expired', message: 'This link has expired.', search: summary(s) } };
    if (action === 'confirm') {
      if (found.used || s.status !== 'pending')
        return { status: 200, body: { ok: true, already: true, search: summary(s) } };
      await activate(tx, s.id, s.frequency);
      await markTokenUsed(tx, hash);
      // a confirmed search is a lead: its owner (else the team) hears of it once, and the CRM
      const owner = s.lead_agent_id ? await leadOwner(tx, s.lead_agent_id) : null;
      await enqueueMail(tx, { kind: 'alert-lead', refId: s.id, recipient: owner?.email ?? config.teamInbox });
      await enqueueEvent(tx, 'alert.confirmed', {
        ...alertData(s),
        status: 'active',
        confirmed_at: nowDate().toISOString(),
      });
      return { status: 200, body: { ok: true, search: summary({ ...s, status: 'active' }) }, queued: true };
    }
    if (s.status === 'pending')
      return {
        status: 410,
        body: { error: 'unconfirmed', message: 'This alert was never confirmed.', search: summary(s) },
      };
    if (action === 'unsubscribe') {
      await unsubscribe(tx, s.id);
      await markTokenUsed(tx, hash);
      await enqueueEvent(tx, 'alert.unsubscribed', {
        ...alertData(s),
        status: 'unsubscribed',
        unsubscribed_at: nowDate().toISOString(),
      });
      return { status: 200, body: { ok: true, search: summary({ ...s, status: 'unsubscribed' }) } };
    }
    if (action === 'update') {
      // a market follow is monthly, a search's alerts never are (the table's check)
      if (frequency && (frequency === MARKET_FREQUENCY) !== Boolean(s.market || s.home))
        return refusedField('frequency');
      if (frequency) await setFrequency(tx, s.id, frequency);
      if (paused !== undefined) await setPaused(tx, s.id, paused);
      const status: SearchStatus = paused === undefined ? s.status : paused ? 'paused' : 'active';
      return {
        status: 200,
        body: { ok: true, search: summary({ ...s, frequency: frequency ?? s.frequency, status }) },
      };
    }
    return { status: 200, body: { ok: true, search: summary(s) } };
  });
}
