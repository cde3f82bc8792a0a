/**
 * visits: what the links of the visit mails do (docs/visits.md "The links"), as one Fetch-style
 * handler that the deployed Deno function and our Node server both run. A request to visit comes
 * as an inquiry (send-property-inquiry with a `visit` part); this function only acts on links.
 * Every call is a POSTed JSON `{ action, token, ... }`:
 *
 * - `view`: what the link's page shows before anyone acts (a mail scanner that opens links changes
 *   nothing): the request, the listing, the times, the visit once confirmed, and for "propose" the
 *   agent's open times.
 * - `confirm` (the agent's link for one time; `location`: the address or the video call's link):
 *   the visit is confirmed, or `taken` (another visit of the agent's holds the time: the database's
 *   constraint, so two confirmations at once cannot both win), `past`, or `done` (the request was
 *   confirmed or cancelled already: a second time can no longer be confirmed).
 * - `propose` (the agent's; `time`, one of the agent's open times, and `location`): the visit is
 *   confirmed at that time instead.
 * - `cancel` (the agent's or the visitor's) and `reschedule` (the visitor's: cancel, then choose
 *   other times on the listing's page): the visit is cancelled and both hear it.
 *
 * 404 for a token never issued (or used for another action), 410 for one that expired; a used
 * one answers what it did (`already: true`). A confirmation or cancellation queues its mails and
 * webhook in the same transaction.
 */
import { refusedField, serveActions, type ClientPolicy, type Outcome } from '../function-http.ts';
import type { Sql, TransactionalSql } from '../sql.ts';
import { TOKEN } from '../alerts/tokens.ts';
import {
  closedTimes,
  loadVisit,
  markVisitTokenUsed,
  openTimesOf,
  readVisitToken,
  type VisitLink,
  type VisitRow,
} from './store.ts';
import { CONTROL_CHARACTERS, LINE_BREAK } from '../../protocol/inquiry.ts';

export type VisitsConfig = Pick<ClientPolicy, 'allowedOrigins'>;

export interface VisitsDeps {
  sql: TransactionalSql;
  config: VisitsConfig;
  /** a mail was queued: deliver it now */
  onQueued?: () => void;
  isUnavailable?: (error: unknown) => boolean;
}

const ACTIONS = ['view', 'confirm', 'propose', 'cancel', 'reschedule'] as const;
type Action = (typeof ACTIONS)[number];

/** Which links each action takes. */
const ALLOWED: Record<Action, Array<VisitLink['purpose']>> = {
  view: ['confirm', 'propose', 'cancel', 'reschedule'],
  confirm: ['confirm'],
  propose: ['propose'],
  cancel: ['cancel'],
  reschedule: ['reschedule'],
};

/** The longest place an agent may give (an address or a video call's link). */
const LOCATION_MAX = 300;

/** What a link's page shows of a request (the visitor's name to the agent only; nobody's contact details). */
export interface VisitSummary {
  id: string;
  /** whose link it was */
  holder: VisitLink['holder'];
  status: VisitRow['status'];
  mode: VisitRow['mode'];
  listing: { id: string; title: string; address: string };
  proposed: string[];
  /** the visitor's language and time zone */
  lang: 'en' | 'es';
  timeZone: string;
  /** the visit, once one of the times was confirmed */
  visit: { start: string; end: string; status: 'confirmed' | 'cancelled'; location: string | null } | null;
  agent: { name: string | null };
  /** the visitor's name, for the agent's pages only */
  visitor: { name: string } | null;
}

const summary = (v: VisitRow, holder: VisitLink['holder']): VisitSummary => ({
  id: v.id,
  holder,
  status: v.status,
  mode: v.mode,
  listing: { id: v.listing_id, title: v.title ?? '', address: [v.address, v.city].filter(Boolean).join(', ') },
  proposed: v.proposed.map((t) => new Date(t).toISOString()),
  lang: v.lang,
  timeZone: v.time_zone,
  visit:
    v.visit_start && v.visit_end && v.visit_status
      ? {
          start: new Date(v.visit_start).toISOString(),
          end: new Date(v.visit_end).toISOString(),
          status: v.visit_status,
          location: v.location,
        }
      : null,
  agent: { name: v.agent_name },
  visitor: holder === 'agent' ? { name: v.name } : null,
});

/** A place as the agent typed it: one line, at most LOCATION_MAX characters; '' for none. */
function readLocation(raw: unknown): string | null | Outcome {
  if (raw === undefined || raw === null) return '';
  if (typeof raw !== 'string') return refusedField('location', 'invalid');
  const s = raw.trim();
  if (s.length > LOCATION_MAX) return refusedField('location', 'tooLong');
  if (CONTROL_CHARACTERS.test(s) || LINE_BREAK.test(s)) return refusedField('location', 'invalid');
  return s;
}

export function createVisitsHandler(deps: VisitsDeps) {
  /** What follows a confirmation or a cancellation (mails, webhook, the lead's status): internal.visit_effects, the one home the agents' area shares. */
  const effects = (
    tx: Sql,
    id: string,
    happened: 'confirmed' | 'cancelled',
    by: VisitLink['holder'] | null = null,
    reschedule = false,
  ) => tx.query('select internal.visit_effects($1::bigint, $2, $3, $4)', [id, happened, by, reschedule]);

  async function act(action: Action, raw: Record<string, unknown>): Promise<Outcome> {
    const token = typeof raw.token === 'string' ? raw.token.trim() : '';
    if (!TOKEN.test(token))
      return { status: 404, body: { error: 'invalid_token', message: 'This link is not valid.' } };
    const location = readLocation(raw.location);
    if (location !== null && typeof location === 'object') return location;
    let time: string | null = null;
    if (action === 'propose') {
      const at = typeof raw.time === 'string' ? Date.parse(raw.time) : NaN;
      if (!Number.isFinite(at)) return refusedField('time', raw.time === undefined ? 'required' : 'invalid');
      time = new Date(at).toISOString();
    }
    return deps.sql.transaction(async (tx) => {
      const link = await readVisitToken(tx, token, action !== 'view');
      if (!link || !ALLOWED[action].includes(link.purpose))
        return { status: 404, body: { error: 'invalid_token', message: 'This link is not valid.' } };
      const v = await loadVisit(tx, link.request_id);
      if (!v) return { status: 410, body: { error: 'gone', message: 'This visit request no longer exists.' } };
      const shown = (row: VisitRow) => summary(row, link.holder);
      if (action === 'view') {
        // the agent proposing another time chooses from the times still open in the calendar
        const open =
          link.purpose === 'propose' && v.status === 'requested' && !link.expired
            ? await openTimesOf(tx, v.agent_id)
            : undefined;
        return {
          status: 200,
          body: {
            ok: true,
            purpose: link.purpose,
            holder: link.holder,
            choice: link.choice,
            used: link.used,
            expired: link.expired,
            request: shown(v),
            ...(open ? { open } : {}),
          },
        };
      }
      if (action === 'confirm' || action === 'propose') {
        // the request confirmed or cancelled already: say what it is (a second time cannot be confirmed)
        if (v.status !== 'requested')
          return { status: 200, body: { ok: true, already: true, result: 'done', request: shown(v) } };
        if (link.expired)
          return { status: 410, body: { error: 'expired', message: 'This link has expired.', request: shown(v) } };
        let result: string;
        // (no place given: the listing's address for a visit in person, internal.confirm_visit_at)
        const place = location || null;
        if (action === 'propose') {
          // another time: one that is open in the agent's calendar (the hours, two hours ahead, the next 14 days)
          const closed = await closedTimes(tx, v.agent_id, [time as string]);
          if (closed.length)
            return {
              status: 409,
              body: {
                error: 'time_unavailable',
                message: 'This time is not open in the calendar.',
                result: 'unavailable',
                request: shown(v),
              },
            };
          result = String(
            (
              await tx.query<{ r: string }>('select internal.confirm_visit_at($1::bigint, $2::timestamptz, $3) as r', [
                v.id,
                time,
                place,
              ])
            )[0]?.r,
          );
        } else {
          result = String(
            (
              await tx.query<{ r: string }>('select internal.confirm_visit($1::bigint, $2, $3) as r', [
                v.id,
                link.choice,
                place,
              ])
            )[0]?.r,
          );
        }
        if (result !== 'confirmed')
          return {
            status: 409,
            body: {
              error: result,
              message: result === 'taken' ? 'Another visit holds this time.' : 'This time has passed.',
              result,
              request: shown(v),
            },
          };
        await markVisitTokenUsed(tx, token);
        await effects(tx, v.id, 'confirmed');
        const now = (await loadVisit(tx, v.id)) as VisitRow;
        return { status: 200, body: { ok: true, result, request: shown(now) }, queued: true };
      }
      // cancel, reschedule
      if (v.status === 'cancelled')
        return { status: 200, body: { ok: true, already: true, result: 'cancelled', request: shown(v) } };
      if (link.expired)
        return { status: 410, body: { error: 'expired', message: 'This link has expired.', request: shown(v) } };
      await tx.query('select internal.cancel_visit($1::bigint)', [v.id]);
      await markVisitTokenUsed(tx, token);
      await effects(tx, v.id, 'cancelled', link.holder, action === 'reschedule');
      const now = (await loadVisit(tx, v.id)) as VisitRow;
      return { status: 200, body: { ok: true, result: 'cancelled', request: shown(now) }, queued: true };
    });
  }

  return serveActions<Action>(
    {
      tag: 'visits',
      allowedOrigins: deps.config.allowedOrigins,
      maxBytes: 4096,
      actions: ACTIONS,
      unavailableMessage: 'Nothing was changed right now. Please try again.',
      onQueued: deps.onQueued,
      isUnavailable: deps.isUnavailable,
    },
    (action, body) => act(action, body),
  );
}
