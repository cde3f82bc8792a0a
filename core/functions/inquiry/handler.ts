/**
 * send-property-inquiry, as one Fetch-style handler (Request -> Response) that the deployed Deno
 * function and our Node server both run. A lead is money: it is validated, its recipient comes
 * from the database (never from the browser alone), it is stored before any delivery, a retry or
 * a double click is recognised by its idempotency key, each client is rate limited, and a bot that
 * fills the honeypot is told "ok" and never delivered.
 */
import { LIMITS, validateInquiry } from './validate.ts';
import {
  answer,
  clientSalt,
  hashClient,
  json,
  readJsonRequest,
  refused,
  refusedField,
  unavailable,
  type ClientPolicy,
} from '../function-http.ts';
import { derivedKey, headerKey, overLimit } from '../request-key.ts';
import { UNKNOWN_CLIENT } from '../client-address.ts';
import { formatPrice } from '../../protocol/format.ts';
import { enqueueMail } from '../outbox/store.ts';
import type { TransactionalSql } from '../sql.ts';
import {
  areaAgent,
  existingInquiry,
  insertInquiry,
  leadOwner,
  resolveRecipient,
  routeLead,
  SELLER_MAILS,
  sellerMailsToday,
  withOwner,
  type Recipient,
} from './store.ts';
import { parseEstimate } from '../../protocol/valuation.ts';
import { estimateHome } from '../valuation.ts';
import { enqueueEvent } from '../webhooks/events.ts';
import { listingPath } from '../../routes.ts';
import { checkedOrigin } from '../../protocol/attribution.ts';
import { closedTimes, insertVisitRequest } from '../visits/store.ts';
import { nowDate } from '../../clock.ts';
import { consentsForWebhook, giveConsents, type Texts } from '../privacy/consents.ts';

export interface InquiryConfig extends ClientPolicy {
  teamInbox: string;
  /** the deployment's lead owner when an element names none (LEAD_AGENT_ID; docs/leads.md) */
  leadAgentId?: string | undefined;
  /** with a lead owner, the listing's agent (or the agent addressed) gets a copy (LEAD_COPY_LISTING_AGENT) */
  copyListingAgent?: boolean;
  /** the site's address, for the listing's link in the webhooks (SITE_URL) */
  siteUrl?: string;
}

export interface InquiryDeps {
  sql: TransactionalSql;
  config: InquiryConfig;
  /** the locale files' texts: a consent is kept in the words of the box she ticked */
  texts: Texts;
  /** called after a new, real inquiry is stored (its mail queued): deliver it now */
  onStored?: (id: string) => void;
  /** tells whether an error means the database is not reachable */
  isUnavailable?: (error: unknown) => boolean;
}

/** A request the function will not store, and why (a visit to a listing gone, or at times no longer open). */
interface Refusal {
  status: number;
  error: string;
  message: string;
  fields: Record<string, string>;
  times?: string[];
}

export function createInquiryHandler(deps: InquiryDeps) {
  const { config } = deps;
  return async function handle(request: Request, context: { clientAddress: string }): Promise<Response> {
    // what is kept of the Origin header: a checked origin, or nothing (core/protocol/attribution.ts)
    const origin = checkedOrigin(request.headers.get('origin'));
    const read = await readJsonRequest(request, {
      allowedOrigins: config.allowedOrigins,
      maxBytes: LIMITS.body,
      what: 'the inquiry',
    });
    if (read instanceof Response) return read;
    const { cors, body } = read;
    const checked = validateInquiry(body, origin);
    if (!checked.ok) return answer(refused(checked.fields, checked.message), cors);
    const input = checked.value;
    const spam = input.website.trim() !== '';
    const fromHeader = headerKey(request);
    if (fromHeader === 'invalid') return answer(refusedField('idempotencyKey'), cors);

    try {
      const clientHash = await hashClient(context.clientAddress, await clientSalt(deps.sql, config.hashSalt));
      const content = [
        input.name,
        input.email,
        input.phone,
        input.message,
        input.propertyTitle,
        input.propertyAddress,
        input.propertyPrice,
        input.recipientEmail,
        input.propertyId,
        input.agentId,
        input.leadAgentId,
        input.seller,
        input.visit,
        input.consents,
      ];
      const idempotencyKey = input.idempotencyKey ?? fromHeader ?? (await derivedKey(clientHash, content));
      const asker = {
        clientHash,
        known: context.clientAddress !== UNKNOWN_CLIENT,
        email: input.email.trim().toLowerCase(),
      };
      const tooMany = () =>
        json(
          429,
          { error: 'rate_limited', message: 'Too many inquiries from this client; try again in a minute.' },
          { ...cors, 'Retry-After': String(config.rateLimit.windowSeconds) },
        );
      // refused before any work is done for it (the estimate below is the costly part): a retry is
      // answered as the first time, a client over its limit waits, and a seller's mailbox gets few
      // mails a day unless it proved it is its owner's (SELLER_MAILS)
      const first = await deps.sql.transaction(async (tx) => {
        const already = await existingInquiry(tx, idempotencyKey);
        if (already) return { already };
        if (await overLimit(tx, 'inquiries', asker, config.rateLimit)) return { limited: true };
        if (input.seller && !spam) {
          const today = await sellerMailsToday(tx, input.email);
          if (today.count >= (today.proven ? SELLER_MAILS.provenAddress : SELLER_MAILS.unprovenAddress))
            return { mailbox: true };
        }
        return {};
      });
      if (first.already) return json(200, { ok: true, id: first.already }, cors);
      if (first.limited) return tooMany();
      if (first.mailbox)
        return json(
          429,
          {
            error: 'rate_limited',
            message:
              'This e-mail address has asked for enough valuations today; an agent will call about the ones sent. Please try again tomorrow.',
            fields: { email: 'limited' },
          },
          { ...cors, 'Retry-After': '86400' },
        );
      // a seller's lead: the estimate the database makes of the home (its facts checked there: a
      // refused one names its field), before anything is stored; a bot's (the honeypot filled)
      // is stored as asked, never estimated
      let seller: Record<string, unknown> | null = null;
      if (input.seller) {
        const made = spam ? { estimate: null } : await estimateHome(deps.sql, input.seller.facts);
        if ('field' in made) {
          return answer(refusedField(`seller.facts.${made.field}`, made.message), cors);
        }
        seller = {
          facts: input.seller.facts,
          timeline: input.seller.timeline,
          also_buying: input.seller.alsoBuying,
          estimate: made.estimate,
        };
      }
      const outcome = await deps.sql.transaction(async (tx) => {
        // one client at a time: the count and the insert must not interleave with its other posts
        const limited = await overLimit(tx, 'inquiries', asker, config.rateLimit);
        const already = await existingInquiry(tx, idempotencyKey);
        if (already) return { id: already, created: false, limited: false, unknownOwner: false };
        if (limited) return { id: '', created: false, limited: true, unknownOwner: false };
        const refused = (why: Refusal) => ({
          id: '',
          created: false,
          limited: false,
          unknownOwner: false,
          refused: why,
        });
        const resolved = await resolveRecipient(tx, input, config.teamInbox);
        const { listing } = resolved;
        // a seller's lead goes to the agent who serves the home's place, else the team (docs/valuation.md)
        const place = (seller?.estimate as { place?: { path?: string } } | undefined)?.place?.path ?? null;
        const natural: Recipient = (seller && (await areaAgent(tx, place))) || resolved.recipient;
        // the lead's owner: the element's, never an address; an id that is not one of ours is refused
        let owner = input.leadAgentId ? await leadOwner(tx, input.leadAgentId) : null;
        if (input.leadAgentId && !owner) return { id: '', created: false, limited: false, unknownOwner: true };
        if (!owner && config.leadAgentId) {
          owner = await leadOwner(tx, config.leadAgentId);
          if (!owner)
            console.error(
              `[send-property-inquiry] LEAD_AGENT_ID ${config.leadAgentId} is not one of our agents: the inquiry goes where it would without it`,
            );
        }
        // nothing named its agent: the team's routing may (its rules, then its default; docs/agent-area.md "Routing")
        const routed =
          !owner && natural.kind === 'team' && !spam
            ? await routeLead(tx, {
                listingId: listing?.id ?? null,
                place,
                propertyType: (seller?.facts as { property_type?: string } | undefined)?.property_type ?? null,
                price: (seller?.estimate as { value?: number } | undefined)?.value ?? null,
                source: input.source?.element ?? null,
                campaign: input.source?.utm?.utm_source ?? null,
              })
            : null;
        const { recipient, copy } = withOwner(routed?.recipient ?? natural, owner, config.copyListingAgent ?? false);
        // a visit (docs/visits.md): to a listing on the market, at times open in the calendar of the
        // agent it goes to (the team's when it goes to the team), checked when it comes
        if (input.visit) {
          if (!listing)
            return refused({
              status: 409,
              error: 'listing_unavailable',
              message: 'This listing is no longer on the market.',
              fields: { propertyId: 'unavailable' },
            });
          const closed = await closedTimes(tx, recipient.agentId, input.visit.times);
          if (closed.length)
            return refused({
              status: 409,
              error: 'times_unavailable',
              message: `These times can no longer be booked: ${closed.join(', ')}.`,
              fields: { 'visit.times': 'unavailable' },
              times: closed,
            });
        }
        const stored = await insertInquiry(tx, {
          idempotencyKey,
          listingId: listing?.id ?? null,
          agentId: input.agentId,
          name: input.name,
          email: input.email,
          phone: input.phone,
          message: input.message,
          // what the database knows wins over what the page said
          propertyTitle: listing?.title ?? input.propertyTitle,
          propertyAddress: listing ? [listing.address, listing.city].filter(Boolean).join(', ') : input.propertyAddress,
          propertyPrice: listing?.price ? formatPrice(listing.price) : input.propertyPrice,
          requestedRecipient: input.recipientEmail,
          recipient,
          copy,
          source: input.source,
          clientHash,
          origin: origin ?? '',
          userAgent: request.headers.get('user-agent') ?? '',
          lang: input.lang,
          spam,
          seller,
          routed: routed?.routed ?? null,
        });
        const visit =
          stored.created && !spam && input.visit && listing
            ? await insertVisitRequest(tx, {
                inquiryId: stored.id,
                listingId: listing.id,
                agentId: recipient.agentId,
                recipientEmail: recipient.email,
                visit: input.visit,
                name: input.name,
                email: input.email,
                phone: input.phone,
                message: input.message,
                lang: input.lang,
              })
            : null;
        // what she consented to besides her request, kept with it (docs/privacy.md "Consents")
        const consents =
          stored.created && !spam
            ? await giveConsents(tx, {
                email: input.email,
                inquiryId: stored.id,
                purposes: input.consents,
                lang: input.lang,
                page: input.source?.page ?? null,
                texts: deps.texts,
              })
            : [];
        const told = { consents: await consentsForWebhook(tx, consents, config.siteUrl) };
        // what every lead's webhook says of who wrote and where from, whatever it is about
        const lead = {
          id: stored.id,
          received_at: stored.receivedAt ? new Date(stored.receivedAt).toISOString() : nowDate().toISOString(),
          lang: input.lang,
          contact: { name: input.name, email: input.email, phone: input.phone || null, message: input.message || null },
        };
        const attribution = {
          origin: origin || null,
          page: input.source?.page || null,
          element: input.source?.element ?? null,
          utm: input.source?.utm ?? {},
        };
        // its e-mails and webhooks are queued in the same transaction: stored means delivered
        if (stored.created && !spam) {
          await enqueueMail(tx, { kind: 'inquiry', refId: stored.id, recipient: recipient.email });
          if (copy) await enqueueMail(tx, { kind: 'inquiry-copy', refId: stored.id, recipient: copy.email });
          if (seller && input.seller) {
            // the seller hears that an agent will call, with the estimate (nothing they typed but numbers)
            await enqueueMail(tx, { kind: 'seller-ack', refId: stored.id, recipient: input.email });
            const e = parseEstimate(seller.estimate);
            await enqueueEvent(tx, 'seller.lead.created', {
              ...lead,
              home: input.seller.facts,
              timeline: input.seller.timeline,
              also_buying: input.seller.alsoBuying,
              estimate: {
                value: e.value,
                low: e.low,
                high: e.high,
                usd_m2: e.usdM2,
                confidence: e.confidence,
                place: e.place,
                comparables: e.comparables.map((c) => Number(c.id)),
              },
              recipient: { kind: recipient.kind, agent_id: recipient.agentId, email: recipient.email },
              lead_agent_id: owner?.agentId ?? null,
              attribution,
              ...told,
            });
          } else
            await enqueueEvent(tx, visit ? 'visit.requested' : 'inquiry.created', {
              ...lead,
              listing: listing
                ? {
                    id: listing.id,
                    title: listing.title,
                    address: [listing.address, listing.city].filter(Boolean).join(', ') || null,
                    price: listing.price === null ? null : Number(listing.price),
                    url: config.siteUrl
                      ? `${config.siteUrl.replace(/\/$/, '')}${listingPath(listing.id, listing.title ?? '', 'es')}`
                      : null,
                  }
                : null,
              recipient: { kind: recipient.kind, agent_id: recipient.agentId, email: recipient.email },
              lead_agent_id: owner?.agentId ?? null,
              copy_to: copy ? { kind: copy.kind, agent_id: copy.agentId, email: copy.email } : null,
              ...(visit && input.visit
                ? {
                    visit: {
                      id: visit,
                      mode: input.visit.mode,
                      times: input.visit.times,
                      time_zone: input.visit.timeZone,
                    },
                  }
                : {}),
              attribution,
              ...told,
            });
        }
        return { ...stored, limited: false, unknownOwner: false };
      });
      if ('refused' in outcome && outcome.refused) {
        const { status, ...body } = outcome.refused;
        return json(status, body, cors);
      }
      if (outcome.unknownOwner) return answer(refusedField('leadAgentId', 'not one of our agents'), cors);
      if (outcome.limited) return tooMany();
      if (outcome.created && !spam) deps.onStored?.(outcome.id);
      return json(200, { ok: true, id: outcome.id }, cors);
    } catch (error) {
      const message = 'The inquiry could not be stored right now; nothing was sent. Please try again.';
      return unavailable('send-property-inquiry', error, deps.isUnavailable, message, cors);
    }
  };
}
