/**
 * send-property-inquiry, as one Fetch-style handler (Request -> Response) that the deployed Deno
 * function and our Node server both run. A lead is money: it is validated, its recipient comes
 * from the database (never from the browser alone), it is stored before any delivery, a retry or
 * a double click is recognised by its idempotency key, each client is rate limited, and a bot that
 * fills the honeypot is told "ok" and never delivered.
 */
import { LIMITS, validateInquiry } from './validate.ts';
import { clientSalt, hashClient, json, readJsonRequest, type ClientPolicy } from '../function-http.ts';
import { derivedKey, headerKey, overLimit } from '../request-key.ts';
import { formatPrice } from '../../protocol/format.ts';
import { enqueueMail } from '../outbox/store.ts';
import type { TransactionalSql } from '../sql.ts';
import { existingInquiry, insertInquiry, resolveRecipient } from './store.ts';

export interface InquiryConfig extends ClientPolicy {
  teamInbox: string;
}

export interface InquiryDeps {
  sql: TransactionalSql;
  config: InquiryConfig;
  /** called after a new, real inquiry is stored (its mail queued): deliver it now */
  onStored?: (id: string) => void;
  /** tells whether an error means the database is not reachable */
  isUnavailable?: (error: unknown) => boolean;
}



export function createInquiryHandler(deps: InquiryDeps) {
  const { config } = deps;
  return async function handle(request: Request, context: { clientAddress: string }): Promise<Response> {
    const origin = request.headers.get('origin');
    const read = await readJsonRequest(request, { allowedOrigins: config.allowedOrigins, maxBytes: LIMITS.body, what: 'the inquiry' });
    if (read instanceof Response) return read;
    const { cors, body } = read;
    const checked = validateInquiry(body);
    if (!checked.ok) return json(400, { error: 'validation', message: checked.message, fields: checked.fields }, cors);
    const input = checked.value;
    const spam = input.website.trim() !== '';
    const fromHeader = headerKey(request);
    if (fromHeader === 'invalid') {
      return json(400, { error: 'validation', message: 'Some fields are not valid: idempotencyKey (invalid).', fields: { idempotencyKey: 'invalid' } }, cors);
    }

    try {
      const clientHash = await hashClient(context.clientAddress, await clientSalt(deps.sql, config.hashSalt));
      const content = [input.name, input.email, input.phone, input.message, input.propertyTitle, input.propertyAddress, input.propertyPrice, input.recipientEmail, input.propertyId, input.agentId];
      const idempotencyKey = input.idempotencyKey ?? fromHeader ?? (await derivedKey(clientHash, content));
      const outcome = await deps.sql.transaction(async (tx) => {
        // one client at a time: the count and the insert must not interleave with its other posts
        const limited = await overLimit(tx, 'inquiries', clientHash, config.rateLimit);
        const already = await existingInquiry(tx, idempotencyKey);
        if (already) return { id: already, created: false, limited: false };
        if (limited) return { id: '', created: false, limited: true };
        const { recipient, listing } = await resolveRecipient(tx, input, config.teamInbox);
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
          clientHash,
          origin: origin ?? '',
          userAgent: request.headers.get('user-agent') ?? '',
          lang: input.lang,
          spam,
        });
        // its e-mail is queued in the same transaction: stored means it will be delivered
        if (stored.created && !spam) await enqueueMail(tx, { kind: 'inquiry', refId: stored.id, recipient: recipient.email });
        return { ...stored, limited: false };
      });
      if (outcome.limited) return json(429, { error: 'rate_limited', message: 'Too many inquiries from this client; try again in a minute.' }, { ...cors, 'Retry-After': String(config.rateLimit.windowSeconds) });
      if (outcome.created && !spam) deps.onStored?.(outcome.id);
      return json(200, { ok: true, id: outcome.id }, cors);
    } catch (error) {
      const unavailable = deps.isUnavailable?.(error) ?? false;
      console.error('[send-property-inquiry]', unavailable ? 'database unavailable' : error);
      return json(503, { error: 'unavailable', message: 'The inquiry could not be stored right now; nothing was sent. Please try again.' }, { ...cors, 'Retry-After': '10' });
    }
  };
}
