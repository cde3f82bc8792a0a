/**
 * listing-events: a listing's page view or save, counted for its agent's figures (docs/agent-area.md
 * "Her listings"), as one Fetch-style handler that the deployed Deno function and our Node server
 * both run. POST `{ listingId, event: 'view' | 'save' }`: 202 `{ counted }` (false for a listing
 * that is not on the market). Counts only: nothing of the visitor is read or kept (no cookie, no
 * address; the client's address only shares the function's work out: client-gate.ts).
 */
import { answer, json, readJsonRequest, refused, unavailable, type ClientPolicy } from '../function-http.ts';
import type { Sql } from '../sql.ts';

export interface ListingEventsDeps {
  sql: Sql;
  config: Pick<ClientPolicy, 'allowedOrigins'>;
  isUnavailable?: (error: unknown) => boolean;
}

const EVENTS = ['view', 'save'] as const;

export function createListingEventsHandler(deps: ListingEventsDeps) {
  return async function handle(request: Request): Promise<Response> {
    const read = await readJsonRequest(request, {
      allowedOrigins: deps.config.allowedOrigins,
      maxBytes: 256,
      what: 'the event',
    });
    if (read instanceof Response) return read;
    const { cors, body } = read;
    const raw = (body ?? {}) as { listingId?: unknown; event?: unknown };
    const id = typeof raw.listingId === 'number' ? String(raw.listingId) : raw.listingId;
    const fields: Record<string, string> = {};
    if (typeof id !== 'string' || !/^\d{1,15}$/.test(id)) fields.listingId = 'invalid';
    if (typeof raw.event !== 'string' || !(EVENTS as readonly string[]).includes(raw.event)) fields.event = 'invalid';
    if (Object.keys(fields).length) return answer(refused(fields), cors);
    try {
      const [row] = await deps.sql.query<{ counted: boolean }>(
        'select internal.count_listing_event($1::bigint, $2) as counted',
        [id, raw.event],
      );
      return json(202, { counted: row?.counted === true }, cors);
    } catch (error) {
      return unavailable('listing-events', error, deps.isUnavailable, 'Not counted right now.', cors);
    }
  };
}
