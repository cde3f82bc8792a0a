/**
 * The inquiries table as the function uses it: the recipient from the database, the rate limit,
 * the idempotent insert, and the outbox (claim, sent, retry). Plain SQL over any client with
 * `query(sql, params)`: pg in our server, a pg client in the deployed Deno function.
 * The e-mail itself waits in the shared outbox (../outbox/).
 */
import type { StoredInquiry } from '../../protocol/inquiry.ts';
import type { Sql } from '../sql.ts';
import type { InquiryInput } from './validate.ts';

export interface Recipient {
  email: string;
  name: string;
  kind: 'listing_agent' | 'agent' | 'team' | 'lead_agent' | 'area_agent' | 'routed';
  agentId: string | null;
}

export interface ListingFacts extends Record<string, unknown> {
  id: string;
  title: string | null;
  address: string | null;
  price: string | null;
  city: string | null;
}

interface AgentRow extends Record<string, unknown> {
  id: string | number;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

const agentName = (a: AgentRow) =>
  [a.first_name, a.last_name]
    .filter((s) => s && s.trim())
    .join(' ')
    .trim();

/** An active EC listing and its agent (by id, else a known EC agent with the listing's agent e-mail). */
async function findListing(sql: Sql, id: string): Promise<{ listing: ListingFacts; agent: AgentRow | null } | null> {
  const rows = await sql.query<
    ListingFacts & {
      agent_id: string | null;
      agent_email: string | null;
      agent_first_name: string | null;
      agent_last_name: string | null;
    }
  >(
    `select l.id::text as id, l.title, l.address, l.price::text as price, l.city,
            a.id::text as agent_id, a.email as agent_email, a.first_name as agent_first_name, a.last_name as agent_last_name
       from internal.listings l
       left join public.agents a on a.is_ours and nullif(btrim(a.email), '') is not null
            and (a.id = l.agent_id or (l.agent_id is null and lower(a.email) = lower(btrim(l.agent_email))))
      where l.id = $1 and l.is_public
      order by (a.id = l.agent_id) desc nulls last
      limit 1`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  const agent = row.agent_id
    ? { id: row.agent_id, email: row.agent_email, first_name: row.agent_first_name, last_name: row.agent_last_name }
    : null;
  return { listing: { id: row.id, title: row.title, address: row.address, price: row.price, city: row.city }, agent };
}

async function findAgent(sql: Sql, by: { id?: string; email?: string }): Promise<AgentRow | null> {
  const rows = by.id
    ? await sql.query<AgentRow>(
        "select id::text as id, email, first_name, last_name from public.agents where id = $1 and is_ours and nullif(btrim(email), '') is not null",
        [by.id],
      )
    : await sql.query<AgentRow>(
        'select id::text as id, email, first_name, last_name from public.agents where lower(btrim(email)) = lower($1) and is_ours limit 1',
        [by.email ?? ''],
      );
  return rows[0] ?? null;
}

/**
 * Who gets the inquiry (docs/decisions.md #9): the listing's agent; else the agent the visitor
 * addressed on a profile; else the browser's recipientEmail only when it is a known EC agent's;
 * else the team inbox. An address is never mailed just because the browser sent it.
 */
export async function resolveRecipient(
  sql: Sql,
  input: { propertyId: string | null; agentId: string | null; recipientEmail: string },
  teamInbox: string,
): Promise<{ recipient: Recipient; listing: ListingFacts | null }> {
  let listing: ListingFacts | null = null;
  if (input.propertyId) {
    const found = await findListing(sql, input.propertyId);
    if (found) {
      listing = found.listing;
      if (found.agent?.email)
        return {
          listing,
          recipient: {
            email: found.agent.email.trim(),
            name: agentName(found.agent),
            kind: 'listing_agent',
            agentId: String(found.agent.id),
          },
        };
    }
  }
  const agent =
    (input.agentId && (await findAgent(sql, { id: input.agentId }))) ||
    (input.recipientEmail && (await findAgent(sql, { email: input.recipientEmail }))) ||
    null;
  if (agent?.email)
    return {
      listing,
      recipient: { email: agent.email.trim(), name: agentName(agent), kind: 'agent', agentId: String(agent.id) },
    };
  return { listing, recipient: { email: teamInbox, name: '', kind: 'team', agentId: null } };
}

/** The lead's owner, when the id is one of our agents with an address (docs/leads.md). */
export async function leadOwner(sql: Sql, id: string): Promise<Recipient | null> {
  const agent = await findAgent(sql, { id });
  return agent?.email
    ? { email: agent.email.trim(), name: agentName(agent), kind: 'lead_agent', agentId: String(agent.id) }
    : null;
}

/**
 * With a lead's owner, the inquiry is theirs: they receive it, and whoever would have received it
 * otherwise (the listing's agent, the agent addressed) gets a copy only when the deployment says
 * so (LEAD_COPY_LISTING_AGENT); the team inbox never gets a copy.
 */
export function withOwner(
  natural: Recipient,
  owner: Recipient | null,
  copyToNatural: boolean,
): { recipient: Recipient; copy: Recipient | null } {
  if (!owner) return { recipient: natural, copy: null };
  const same = natural.email.toLowerCase() === owner.email.toLowerCase();
  return { recipient: owner, copy: copyToNatural && natural.kind !== 'team' && !same ? natural : null };
}

/** The row stored: the checked body, and what the function decided about it. */
export interface NewInquiry extends Pick<
  InquiryInput,
  'agentId' | 'name' | 'email' | 'phone' | 'message' | 'propertyTitle' | 'propertyAddress' | 'propertyPrice' | 'source'
> {
  idempotencyKey: string;
  listingId: string | null;
  requestedRecipient: string;
  recipient: Recipient;
  copy: Recipient | null;
  clientHash: string;
  origin: string;
  userAgent: string;
  lang: string;
  spam: boolean;
  /** a seller's lead: the home, when, whether they also buy, and the estimate made of it */
  seller: Record<string, unknown> | null;
  /** how the team's routing chose its agent (internal.route_lead), for a lead nothing named an agent for */
  routed?: Record<string, unknown> | null;
}

/**
 * How many mails a seller's request may send a mailbox a day (internal.mailbox(): case and a
 * "+tag" aside): the acknowledgement goes to whatever address was typed, so an address that never
 * proved it is its owner's (by confirming an alert) gets few, one that did more (docs/decisions.md #24).
 */
export const SELLER_MAILS = { unprovenAddress: 3, provenAddress: 10 } as const;

/** The seller's requests to this mailbox in the last 24 hours, and whether the mailbox proved it is its owner's. */
export async function sellerMailsToday(sql: Sql, email: string): Promise<{ count: number; proven: boolean }> {
  const [row] = await sql.query<{ n: number | string; proven: boolean }>(
    `select (select count(*) from public.inquiries i
              where i.seller is not null and not i.spam and internal.mailbox(i.email) = internal.mailbox($1) and i.received_at > internal.now() - interval '24 hours') as n,
            exists (select 1 from internal.saved_searches s where internal.mailbox(s.email) = internal.mailbox($1) and s.confirmed_at is not null) as proven`,
    [email],
  );
  return { count: Number(row?.n ?? 0), proven: Boolean(row?.proven) };
}

export async function existingInquiry(sql: Sql, key: string): Promise<string | null> {
  const rows = await sql.query<{ id: string }>(
    'select id::text as id from public.inquiries where idempotency_key = $1',
    [key],
  );
  return rows[0]?.id ?? null;
}

/** Stores the inquiry before anything is sent; a known idempotency key returns the first one's id. */
export async function insertInquiry(
  sql: Sql,
  i: NewInquiry,
): Promise<{ id: string; created: boolean; receivedAt?: string }> {
  const rows = await sql.query<{ id: string; received_at: string }>(
    `insert into public.inquiries
       (idempotency_key, listing_id, agent_id, name, email, phone, message, property_title, property_address, property_price,
        requested_recipient, recipient_email, recipient_kind, client_hash, origin, user_agent, lang, spam,
        lead_agent_id, copy_recipient, page_url, element, utm, seller, routed)
     values ($1, $2, $3, $4, $5, nullif($6, ''), nullif($7, ''), nullif($8, ''), nullif($9, ''), nullif($10, ''),
             nullif($11, ''), $12, $13, $14, nullif($15, ''), nullif($16, ''), $17, $18,
             $19, $20, nullif($21, ''), $22, $23::jsonb, $24::jsonb, $25::jsonb)
     on conflict (idempotency_key) do nothing
     returning id::text as id, received_at::text as received_at`,
    [
      i.idempotencyKey,
      i.listingId,
      i.recipient.agentId ?? i.agentId,
      i.name,
      i.email,
      i.phone,
      i.message,
      i.propertyTitle,
      i.propertyAddress,
      i.propertyPrice,
      i.requestedRecipient,
      i.recipient.email,
      i.recipient.kind,
      i.clientHash,
      i.origin.slice(0, 300),
      i.userAgent.slice(0, 300),
      i.lang,
      i.spam,
      i.recipient.kind === 'lead_agent' ? i.recipient.agentId : null,
      i.copy?.email ?? null,
      i.source?.page ?? '',
      i.source?.element ?? null,
      i.source ? JSON.stringify(i.source.utm) : null,
      i.seller ? JSON.stringify(i.seller) : null,
      i.routed ? JSON.stringify(i.routed) : null,
    ],
  );
  if (rows[0]) return { id: rows[0].id, created: true, receivedAt: rows[0].received_at };
  const id = await existingInquiry(sql, i.idempotencyKey);
  if (!id) throw new Error('inquiry vanished after a conflicting insert');
  return { id, created: false };
}

export interface InquiryMailRow extends StoredInquiry, Record<string, unknown> {
  property_address: string | null;
  property_price: string | null;
  listing_id: string | null;
  recipient_email: string;
  recipient_kind: string;
  recipient_name: string | null;
  /** the listing's operation ('rent': its price is a month's), when the inquiry is about one of ours */
  operation?: string | null;
  copy_recipient: string | null;
  origin: string | null;
  seller: SellerLead | null;
}

/** A seller's lead as it is kept (public.inquiries.seller). */
export interface SellerLead {
  facts: Record<string, unknown>;
  timeline: string;
  also_buying: boolean;
  /** public.estimate_value's answer when the lead came */
  estimate: Record<string, unknown>;
}

/**
 * Where the team's routing sends a lead nothing named an agent for (internal.route_lead: its rules
 * by place, type, price and source, then its default): the agent as its recipient and how she was
 * chosen, or null (the team's inbox).
 */
export async function routeLead(
  sql: Sql,
  facts: {
    listingId: string | null;
    place: string | null;
    propertyType: string | null;
    price: number | null;
    source: string | null;
    campaign: string | null;
  },
): Promise<{ recipient: Recipient; routed: Record<string, unknown> } | null> {
  const [row] = await sql.query<{ routed: ({ agent_id: number } & Record<string, unknown>) | null }>(
    'select internal.route_lead($1::jsonb) as routed',
    [
      JSON.stringify({
        listing_id: facts.listingId,
        place: facts.place,
        property_type: facts.propertyType,
        price: facts.price,
        source: facts.source,
        campaign: facts.campaign,
      }),
    ],
  );
  if (!row?.routed) return null;
  const agent = await findAgent(sql, { id: String(row.routed.agent_id) });
  return agent?.email
    ? {
        recipient: { email: agent.email.trim(), name: agentName(agent), kind: 'routed', agentId: String(agent.id) },
        routed: row.routed,
      }
    : null;
}

/** The agent who serves the place (internal.area_agent), as a recipient of a seller's lead. */
export async function areaAgent(sql: Sql, place: string | null): Promise<Recipient | null> {
  if (!place) return null;
  const rows = await sql.query<{ id: string | null }>('select internal.area_agent($1)::text as id', [place]);
  const id = rows[0]?.id;
  const agent = id ? await findAgent(sql, { id }) : null;
  return agent?.email
    ? { email: agent.email.trim(), name: agentName(agent), kind: 'area_agent', agentId: String(agent.id) }
    : null;
}

/** What the inquiry's e-mail is made of, read when it is sent. */
export async function loadInquiryForMail(sql: Sql, id: string): Promise<InquiryMailRow | null> {
  const rows = await sql.query<InquiryMailRow>(
    `select q.id::text as id, q.name, q.email, q.phone, q.message, q.property_title, q.property_address, q.property_price,
            q.listing_id::text as listing_id, q.recipient_email, q.recipient_kind, q.lang, q.received_at::text as received_at,
            q.copy_recipient, q.origin, q.page_url, q.element, q.utm, q.seller,
            (select nullif(btrim(concat_ws(' ', a.first_name, a.last_name)), '') from public.agents a where a.id = q.agent_id) as recipient_name,
            (select l.operation from internal.listings l where l.id = q.listing_id) as operation
       from public.inquiries q where q.id = $1::uuid and not q.spam`,
    [id],
  );
  return rows[0] ?? null;
}
