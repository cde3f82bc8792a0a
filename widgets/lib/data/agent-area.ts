/**
 * The agents' area's calls (docs/agent-area.md): signing in through the backend's Auth (Supabase
 * Auth on a hosted project, our server's stand-in locally: the same @supabase/auth-js calls), and
 * her leads through the data API with her session's token, row level security deciding whose. Only
 * <exp-agent-area> imports this, so only its chunk carries auth-js. The team's calls are in
 * ./agent-team.ts, her calendar's in ./agent-calendar.ts.
 */
import type { StoredInquiry } from '../../../core/protocol/inquiry.ts';
import type { ConsentPurpose } from '../../../core/protocol/privacy.ts';
import { AuthClient, type GoTrueClient, type Session } from '@supabase/auth-js';
import type { ApiConfig } from '../config.ts';
import { answer, DATA_DEADLINE_MS, restClient } from './client.ts';
import { fetchWithDeadline } from './deadline.ts';

export const LEAD_STATUSES = ['new', 'contacted', 'visit_booked', 'offer', 'won', 'lost'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export interface Lead extends StoredInquiry {
  listing_id: number | null;
  seller: Record<string, unknown> | null;
  status: LeadStatus;
  follow_up_on: string | null;
  /** what it asked about (LEAD_KINDS), as the database keeps it */
  kind: LeadKind;
  /** why it is whose it is: how it came (docs/leads.md), the team's routing, or the team's hand */
  recipient_kind: 'listing_agent' | 'agent' | 'team' | 'lead_agent' | 'area_agent' | 'routed';
  assigned: boolean;
  routed: { by: 'rule' | 'spread'; rule_id?: number } | null;
  owner_agent_id: number | null;
  /** when the visitor's data was erased at her request (docs/privacy.md): the lead stays, without her */
  erased_at?: string | null;
  /** what she consented to besides her request (docs/privacy.md "Consents"), and whether she withdrew it */
  consents?: Array<{ purpose: ConsentPurpose; given_at: string; withdrawn_at: string | null }> | null;
}

/** Why a lead is its owner's, as the area says it (a locale key under agentArea.why). */
export function leadWhy(lead: Pick<Lead, 'recipient_kind' | 'assigned' | 'routed' | 'owner_agent_id'>): string {
  if (lead.routed) return lead.routed.by === 'rule' ? 'rule' : 'spread';
  if (lead.assigned) return lead.owner_agent_id === null ? 'toTeam' : 'reassigned';
  return (
    {
      listing_agent: 'listing',
      agent: 'addressed',
      team: 'team',
      lead_agent: 'website',
      area_agent: 'area',
      routed: 'spread',
    }[lead.recipient_kind] ?? 'team'
  );
}

const auths = new Map<string, GoTrueClient>();

/** One Auth client per backend, its session kept in this browser (localStorage) under the backend's own key. */
export function authFor(config: ApiConfig): GoTrueClient {
  let found = auths.get(config.url);
  if (!found) {
    found = new AuthClient({
      url: `${config.url}/auth/v1`,
      headers: { apikey: config.key },
      fetch: fetchWithDeadline,
      storageKey: `exp-agent-session:${config.url}`,
      persistSession: typeof localStorage !== 'undefined',
      autoRefreshToken: true,
      detectSessionInUrl: false,
    });
    auths.set(config.url, found);
  }
  return found;
}

/**
 * The page's first calls (her role, her leads, her alert subscriptions), asked as soon as the area's
 * code runs, while the page's elements are still rendering; each is taken once by the part that
 * needs it, within a few seconds, else asked again (docs/agent-area.md "Speed").
 */
const early = new Map<string, { at: number; answer: Promise<unknown> }>();
const EARLY_MS = 10_000;
const earlyKey = (config: ApiConfig, session: Session, call: string) => `${config.url} ${session.access_token} ${call}`;

export function askEarly(config: ApiConfig): void {
  authFor(config)
    .getSession()
    .then(({ data: { session } }) => {
      if (!session) return;
      const calls: Record<string, Promise<unknown>> = {
        my_role: getMyRole(config, session),
        my_leads: getMyLeads(config, session),
        my_alert_leads: getMyAlertLeads(config, session),
      };
      for (const [call, answer] of Object.entries(calls)) {
        // (an error is the part's to show when it takes the answer)
        answer.catch(() => undefined);
        early.set(earlyKey(config, session, call), { at: Date.now(), answer });
      }
    })
    .catch(() => undefined);
}

/** The answer asked early for this call, if there is a fresh one (taken once), else the call made now. */
function earlyOr<T>(config: ApiConfig, session: Session, call: string, ask: () => Promise<T>): Promise<T> {
  const key = earlyKey(config, session, call);
  const found = early.get(key);
  early.delete(key);
  return found && Date.now() - found.at < EARLY_MS ? (found.answer as Promise<T>) : ask();
}

/** The data API as the signed-in agent (under the same deadline as every element's call). */
export const restAs = (config: ApiConfig, session: Session) =>
  restClient(config, { apikey: config.key, Authorization: `Bearer ${session.access_token}` });

/** Mails a code to the address (Auth answers the same for any address: only an agent's gets one). */
export async function askForCode(config: ApiConfig, email: string): Promise<'sent' | 'wait' | 'failed'> {
  const { error } = await authFor(config).signInWithOtp({ email, options: { shouldCreateUser: false } });
  if (!error) return 'sent';
  return error.status === 429 ? 'wait' : 'failed';
}

export async function signInWithCode(
  config: ApiConfig,
  email: string,
  code: string,
): Promise<Session | 'wrong' | 'failed'> {
  const { data, error } = await authFor(config).verifyOtp({ email, token: code, type: 'email' });
  if (data.session) return data.session;
  return error && (error.status === 403 || error.status === 400) ? 'wrong' : 'failed';
}

/** How many leads one call brings (public.my_leads' max_rows): her newest, then as many older at a time. */
export const LEADS_PAGE = 500;

/**
 * Which of her leads to bring: those her search finds (else all), of a status and of a kind (else any), for the
 * team one agent's (`ownerId`; 0: the team's own), older than the last one she has (else the newest).
 */
export interface LeadsAsk {
  search?: string;
  status?: LeadStatus;
  kind?: LeadKind;
  ownerId?: number;
  olderThan?: Pick<Lead, 'received_at' | 'id'>;
}

/**
 * Her leads, newest first (the team's: all), a page at a time, in one call with her session alone
 * (public.my_leads: row level security deciding, an index answering: docs/agent-area.md "Speed").
 */
export async function getMyLeads(
  config: ApiConfig,
  session: Session,
  signal?: AbortSignal,
  { search, status, kind, ownerId, olderThan }: LeadsAsk = {},
): Promise<Lead[]> {
  const args = {
    max_rows: LEADS_PAGE,
    ...(search ? { search } : {}),
    ...(status ? { status } : {}),
    ...(kind ? { kind } : {}),
    ...(ownerId === undefined ? {} : { owner_id: ownerId }),
    // the time as the database wrote it (to the microsecond): a Date would round it
    ...(olderThan ? { older_than: olderThan.received_at, older_id: olderThan.id } : {}),
  };
  return (await answer(restAs(config, session).rpc('my_leads', args), 'leads', signal)) as Lead[];
}

/** Her leads and alert subscriptions as the page first shows them: the early answers when there are. */
export function firstLeads(config: ApiConfig, session: Session, signal?: AbortSignal): Promise<[Lead[], AlertLead[]]> {
  return Promise.all([
    earlyOr(config, session, 'my_leads', () => getMyLeads(config, session, signal)),
    earlyOr(config, session, 'my_alert_leads', () => getMyAlertLeads(config, session, signal)),
  ]);
}

export async function moveLead(
  config: ApiConfig,
  session: Session,
  lead: { id: string; status: LeadStatus; followUpOn: string | null; note: string },
): Promise<void> {
  await answer(
    restAs(config, session).rpc('move_lead', {
      lead_id: lead.id,
      status: lead.status,
      follow_up_on: lead.followUpOn || null,
      note: lead.note.trim() || null,
    }),
    'move the lead',
  );
}

/** Where a lead came from, as her filter names it: the site its page was on (her own website, ours), else its element, else '' (not known). */
export function leadSource(lead: Pick<Lead, 'page_url' | 'element'>): string {
  try {
    if (lead.page_url) return new URL(lead.page_url).host;
  } catch {
    // a page that is not an address: its element says where
  }
  return lead.element ?? '';
}

/**
 * What a lead asked about: a listing, a home's value (a seller), or a general question; the
 * database keeps it (public.inquiries.kind, 40_inquiries.sql), and her filter asks it for them.
 */
export const LEAD_KINDS = ['listing', 'valuation', 'general'] as const;
export type LeadKind = (typeof LEAD_KINDS)[number];

/**
 * Leads as CSV (RFC 4180: every cell quoted, quotes doubled, CRLF), for a spreadsheet: a cell that a
 * spreadsheet would read as a formula (=, +, -, @, a tab or a return first) is kept as text with a
 * leading apostrophe, so a lead's words never run as one.
 */
export function leadsCsv(header: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const cell = (value: string | number | null | undefined) => {
    const text = value === null || value === undefined ? '' : String(value);
    const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return `"${safe.replace(/"/g, '""')}"`;
  };
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Her profile as she edits it (public.my_profile). */
export interface MyProfile {
  id: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  picture: string | null;
  phone: string | null;
  about: string | null;
  about_es: string | null;
  languages: string[] | null;
  specializations: string[] | null;
  certifications: string[] | null;
  facebook: string | null;
  instagram: string | null;
  linkedin: string | null;
  website: string | null;
  /** the places she serves, with our place's path where one has that name */
  places: Array<{ name: string; path: string | null }>;
}

/** What she saves: every field at once; `places` are our places' paths. */
export type ProfileChange = Partial<
  Omit<MyProfile, 'id' | 'first_name' | 'last_name' | 'email' | 'picture' | 'places'>
> & { places?: string[] };

export async function getMyProfile(config: ApiConfig, session: Session): Promise<MyProfile | null> {
  return (await answer(restAs(config, session).rpc('my_profile'), 'profile')) as MyProfile | null;
}

/** Saves her profile; a refusal's reason is the database's hint (the field: about, places, facebook, ...). */
export async function updateMyProfile(
  config: ApiConfig,
  session: Session,
  change: ProfileChange,
): Promise<MyProfile | { refused: string }> {
  const { data, error } = await restAs(config, session).rpc('update_my_profile', { profile: change });
  if (error) {
    if (error.code === '22023' && error.hint) return { refused: error.hint };
    throw new Error(`could not save the profile: ${error.message}`);
  }
  return data as MyProfile;
}

/**
 * How long her photo may take: the elements' deadline for the answer, and the time to send it at
 * 20 KB a second, a slow phone network's upload (a 10 MB photo, the most she may send, about 9 minutes).
 */
export const uploadDeadline = (bytes: number) => DATA_DEADLINE_MS + Math.ceil(bytes / 20_000) * 1000;

/**
 * Uploads her photo to our server (server/agent-area/photo.ts), which makes its sizes and sets it:
 * its address, or why not (not_an_image, too_small, too_large, too_many). `endpoint` is where our
 * server answers, the page's own origin by default.
 */
export async function uploadMyPhoto(
  session: Session,
  file: Blob,
  endpoint = '/agent/photo',
): Promise<{ picture: string } | { refused: string }> {
  const response = await fetchWithDeadline(
    new URL(endpoint, globalThis.location?.href),
    {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${session.access_token}`,
        'Content-Type': file.type || 'application/octet-stream',
      },
      body: file,
    },
    uploadDeadline(file.size),
  );
  const body = (await response.json().catch(() => ({}))) as { picture?: string; error?: string };
  if (response.ok && body.picture) return { picture: body.picture };
  if (response.status >= 500 || !body.error) throw new Error(`could not upload the photo (${response.status})`);
  return { refused: response.status === 415 ? 'not_an_image' : body.error };
}

/**
 * Who she is in the area: her agent id (null for the team's own account), whether she is the
 * team's, and whether she gets her morning mail of the leads to follow up (an agent's: else null).
 */
export interface AreaRole {
  agent_id: number | null;
  team: boolean;
  follow_up_mail: boolean | null;
}

async function getMyRole(config: ApiConfig, session: Session): Promise<AreaRole> {
  return (await answer(restAs(config, session).rpc('my_role'), 'role')) as AreaRole;
}

/** Her role as the page first reads it: the early answer when there is one. */
export const firstRole = (config: ApiConfig, session: Session) =>
  earlyOr(config, session, 'my_role', () => getMyRole(config, session));

/** A confirmed alert subscription of hers (public.my_alert_leads): a search, a market followed, or a home's monthly report. */
export interface AlertLead {
  id: number;
  email: string;
  filters: Record<string, unknown>;
  market: { name?: string } | null;
  home: Record<string, unknown> | null;
  frequency: string;
  lang: string;
  status: 'active' | 'paused';
  confirmed_at: string;
  page_url: string | null;
  element: string | null;
  utm: Record<string, string> | null;
}

export async function getMyAlertLeads(config: ApiConfig, session: Session, signal?: AbortSignal): Promise<AlertLead[]> {
  return (await answer(restAs(config, session).rpc('my_alert_leads'), 'alert subscriptions', signal)) as AlertLead[];
}

/** One of her listings with its weeks (public.my_listing_figures). */
export interface ListingFigures {
  id: number;
  title: string;
  city: string | null;
  sector: string | null;
  price: number | null;
  operation: string;
  usd_m2: number | null;
  /** its sector's figure (public.listing_market), the latest month */
  market: { name: string; median: number | null; listings: number } | null;
  weeks: Array<{
    week: string;
    views: number;
    saves: number;
    inquiries: number;
    visit_requests: number;
    alert_mails: number;
  }>;
}

export async function getMyListingFigures(config: ApiConfig, session: Session, weeks = 8): Promise<ListingFigures[]> {
  return (await answer(
    restAs(config, session).rpc('my_listing_figures', { weeks }),
    'listing figures',
  )) as ListingFigures[];
}
