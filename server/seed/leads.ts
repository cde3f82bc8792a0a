/**
 * The seed's leads (docs/agent-area.md): what visitors asked the office's agents in the weeks before
 * the seed's day, so that an agent who signs in to a fresh `npm start` finds a working list, not an
 * empty page. Each is the row the inquiry function would have stored (docs/leads.md): about one of
 * her listings (its agent's), written to her profile, sent from her own website's elements (her
 * `lead-agent-id`), or a seller asking what a home is worth (its estimate made by the database once
 * the listings are in: apply.ts `LEAD_STATEMENTS`); older ones further along (contacted, a visit
 * booked, an offer, won or lost), some with a follow-up day. The visitors are made up, at a reserved
 * domain (`correo.example`), and come with no consents: a seed ticks no box for anyone.
 */
import { mailboxWord, type AgentRow } from './agents.ts';
import { DAY, HOUR, random, SEED } from './draw.ts';
import type { ListingRow } from './rows.ts';
import { agentsNewest } from './listing-weeks.ts';
import { agentPath, listingPath } from '../../core/routes.ts';
import type { SellerTimeline } from '../../core/protocol/valuation.ts';

export interface LeadRow {
  idempotency_key: string;
  listing_id: number | null;
  agent_id: number | null;
  lead_agent_id: number | null;
  name: string;
  email: string;
  phone: string | null;
  message: string;
  property_title: string | null;
  property_address: string | null;
  property_price: string | null;
  recipient_email: string;
  recipient_kind: 'listing_agent' | 'agent' | 'lead_agent';
  lang: 'en' | 'es';
  received_at: string;
  origin: string;
  page_url: string;
  element: string;
  utm: Record<string, string> | null;
  /** a seller's lead: the home's facts, when, whether they also buy (the estimate is the database's) */
  seller: { facts: Record<string, unknown>; timeline: SellerTimeline; also_buying: boolean } | null;
  status: 'new' | 'contacted' | 'visit_booked' | 'offer' | 'won' | 'lost';
  follow_up_on: string | null;
}

export const LEAD_COLUMNS = [
  'idempotency_key',
  'listing_id',
  'agent_id',
  'lead_agent_id',
  'name',
  'email',
  'phone',
  'message',
  'property_title',
  'property_address',
  'property_price',
  'recipient_email',
  'recipient_kind',
  'lang',
  'received_at',
  'origin',
  'page_url',
  'element',
  'utm',
  'seller',
  'status',
  'follow_up_on',
] as const satisfies ReadonlyArray<keyof LeadRow>;

/** Every seeded lead's key starts so: a second seed replaces them and leaves the visitors' own. */
export const SEED_LEAD_PREFIX = 'seed-lead-';

/** The site the seed's visitors came from (a deployment's own origin is configuration). */
const SITE = 'https://expecuador.example';

const FIRST = [
  'Andrea',
  'Carlos',
  'Daniela',
  'Diego',
  'Fernanda',
  'Gabriel',
  'Jorge',
  'Karina',
  'Luis',
  'María José',
  'Mateo',
  'Paola',
  'Ricardo',
  'Sofía',
  'Valeria',
  'Xavier',
  'Cristina',
  'Santiago',
  'Verónica',
  'Esteban',
];
const LAST = [
  'Aguirre',
  'Benítez',
  'Cevallos',
  'Chiriboga',
  'Espinosa',
  'Guerrero',
  'Jaramillo',
  'León',
  'Moreno',
  'Naranjo',
  'Ortiz',
  'Pazmiño',
  'Proaño',
  'Salazar',
  'Torres',
  'Vásconez',
  'Villacrés',
  'Zambrano',
  'Ruiz',
  'Cárdenas',
];
/** the English-speaking buyers (Cuenca's and the coast's retirees, families moving for work) */
const FIRST_EN = [
  'Emily',
  'Michael',
  'Sarah',
  'David',
  'Linda',
  'Robert',
  'Karen',
  'James',
  'Anna',
  'Thomas',
  'Rachel',
  'Peter',
  'Hannah',
  'Mark',
];
const LAST_EN = [
  'Johnson',
  'Miller',
  'Thompson',
  'Walker',
  'Anderson',
  'Clark',
  'Lewis',
  'Young',
  'Fischer',
  'Brennan',
  'Dubois',
  'Hughes',
  'Larsen',
  'Novak',
];

/** what a buyer writes about a listing, `{title}` its title */
const LISTING_MESSAGES = {
  es: [
    'Hola, me interesa {title}. ¿Sigue disponible? ¿Podríamos visitarla este sábado en la mañana?',
    'Buenas tardes. ¿El precio de {title} es negociable? Tengo el crédito del BIESS preaprobado.',
    '¿Cuánto es la alícuota y cuántos parqueaderos tiene? Me interesa {title}.',
    'Quisiera más fotos de la cocina y de los baños de {title}, por favor. ¿Se puede visitar entre semana?',
    'Vivo fuera del país y busco para mis padres. ¿Me podría hacer una videollamada desde {title}?',
  ],
  en: [
    'Hi, is {title} still available? We move to Ecuador in March and would like a video tour first.',
    'Hello, we are retiring to Ecuador next year. Could we see {title} when we visit in two weeks?',
    'What are the monthly fees of {title}, and is it far from a good hospital?',
  ],
};
/** what a buyer writes to an agent without a listing in mind */
const GENERAL_MESSAGES = {
  es: [
    'Busco un departamento de dos dormitorios para arrendar con opción a compra, hasta 900 al mes.',
    'Buscamos casa con jardín en un conjunto cerrado, tres dormitorios, hasta 180.000. ¿Qué tiene?',
    'Quiero invertir en un departamento pequeño para arrendar. ¿Qué sector me recomienda?',
    'Necesito un local comercial de unos 80 m² con vitrina a la calle.',
  ],
  en: [
    'We are looking for a two-bedroom flat with a view, walking distance to shops, up to $150,000.',
    'Could you help us find a rental for six months while we look to buy?',
    'My company is moving me to Quito in January. I need a furnished flat near the north business district.',
    'We would like a house with a garden for our two dogs, somewhere quiet but not too far from a town.',
    'Can a foreigner buy property in Ecuador in their own name? We are looking around $200,000.',
  ],
};
const SELLER_MESSAGES = {
  es: [
    'Quiero vender mi casa este año y saber en cuánto ponerla.',
    'Heredamos un departamento entre hermanos y queremos venderlo. ¿Nos ayuda?',
    'Me mudo a Guayaquil por trabajo: quisiera vender antes de fin de año.',
  ],
  en: ['We are moving back home and want to sell our flat here. What would you suggest asking?'],
};
const TIMELINES: SellerTimeline[] = ['now', 'months3', 'months6', 'year', 'exploring'];
const CAMPAIGNS = [
  { utm_source: 'facebook', utm_medium: 'paid', utm_campaign: 'preventa-cumbaya' },
  { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'casas-quito' },
  { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'nuevos-listados' },
];

/** How far a lead of this age has got: the newest are new, the older ones further along or lost. */
function statusFor(ageDays: number, r: number): LeadRow['status'] {
  if (ageDays < 2) return 'new';
  if (ageDays < 10) return r < 0.35 ? 'new' : r < 0.85 ? 'contacted' : 'visit_booked';
  if (ageDays < 30)
    return r < 0.1 ? 'new' : r < 0.45 ? 'contacted' : r < 0.75 ? 'visit_booked' : r < 0.9 ? 'offer' : 'lost';
  return r < 0.3 ? 'contacted' : r < 0.45 ? 'offer' : r < 0.65 ? 'won' : 'lost';
}

/**
 * The leads of the office's agents: the sample agents (the first six, with full profiles) eight to
 * twelve each, the others up to four, received in the 75 days before `now` at office hours in
 * Ecuador (UTC-5), each agent's first within the last day and a half (so still new); in no
 * particular order (the area sorts them). Deterministic for a seed and a day.
 */
export function seedLeads(
  agents: readonly AgentRow[],
  listings: readonly ListingRow[],
  now: number,
  seed = SEED,
): LeadRow[] {
  const rand = random(seed * 31 + 7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  // the homes for sale among her newest (those her area shows, with their figures: listing-weeks.ts)
  const newest = agentsNewest(agents, listings);
  const forSale = (l: ListingRow) =>
    l.operation !== 'rent' &&
    (l.property_type === 'house' || l.property_type === 'apartment') &&
    // (not the rows made to exercise the rules: a point off the map, markup in a title)
    onMainland(l) &&
    !/[<>]/.test(l.title ?? '');
  const office = agents.filter((a) => a.country_code === 'EC' && a.email);
  const rows: LeadRow[] = [];
  office.forEach((agent, index) => {
    const own = (newest.get(agent.id) ?? []).slice(0, 40).filter(forSale);
    const count = index < 6 ? 8 + Math.floor(rand() * 5) : Math.floor(rand() * 5);
    for (let i = 0; i < count; i++) {
      const n = rows.length + 1;
      const english = rand() < 0.25;
      const lang = english ? 'en' : 'es';
      const first = english ? pick(FIRST_EN) : pick(FIRST);
      const last = english ? pick(LAST_EN) : `${pick(LAST)} ${pick(LAST)}`;
      const ageDays = i === 0 ? rand() * 1.5 : rand() * 75;
      // office hours in Ecuador: 8:00 to 21:00 there is 13:00 to 02:00 UTC
      const day = Math.floor((now - ageDays * DAY) / DAY) * DAY;
      const received = Math.min(now - HOUR, day + 13 * HOUR + Math.floor(rand() * 13 * HOUR));
      const status = statusFor((now - received) / DAY, rand());
      // (an agent with no home for sale of her own is written to without one in mind)
      const kind = !own.length ? 'general' : rand() < 0.6 ? 'listing' : rand() < 0.5 ? 'seller' : 'general';
      const listing = kind === 'general' ? null : pick(own);
      const website = kind !== 'listing' && rand() < 0.4;
      const text = (pool: { es: string[]; en: string[] }) =>
        pick(pool[lang]).replace('{title}', () => listing?.title ?? '');
      const base = {
        idempotency_key: `${SEED_LEAD_PREFIX}${n}`,
        name: `${first} ${last}`,
        email: `${mailboxWord(first)}.${mailboxWord(last.split(' ')[0]!)}${n}@correo.example`,
        phone: rand() < 0.85 ? mobile(rand) : null,
        lang,
        received_at: new Date(received).toISOString(),
        origin: SITE,
        utm: rand() < 0.3 ? pick(CAMPAIGNS) : null,
        status,
        follow_up_on:
          status === 'contacted' || status === 'visit_booked' || status === 'offer'
            ? new Date(Math.floor(now / DAY) * DAY + Math.floor(rand() * 12 - 3) * DAY).toISOString().slice(0, 10)
            : null,
      } as const;
      const addressed = website
        ? { agent_id: agent.id, lead_agent_id: agent.id, recipient_kind: 'lead_agent' as const }
        : { agent_id: agent.id, lead_agent_id: null, recipient_kind: 'agent' as const };
      const from = website
        ? {
            page_url: `https://${mailboxWord(agent.first_name)}${mailboxWord(agent.last_name)}.example/`,
            element: 'exp-inquiry-form',
          }
        : { page_url: `${SITE}${agentPath(agent.id, lang)}`, element: 'exp-agent-profile' };
      if (kind === 'listing' && listing) {
        rows.push({
          ...base,
          ...NO_PROPERTY,
          listing_id: listing.id,
          agent_id: agent.id,
          lead_agent_id: null,
          message: text(LISTING_MESSAGES),
          property_title: listing.title,
          property_address: listing.address,
          property_price: listing.price === null ? null : String(listing.price),
          recipient_email: agent.email!,
          recipient_kind: 'listing_agent',
          page_url: `${SITE}${listingPath(listing.id, listing.title, lang)}`,
          element: rand() < 0.5 ? 'exp-property-search' : 'exp-inquiry-form',
        });
      } else if (kind === 'seller' && listing) {
        // a home like one of hers, in her part of town: what a neighbour of her listings would own
        const area = Math.round((listing.square_feet ?? 100) * (0.85 + rand() * 0.3));
        rows.push({
          ...base,
          ...NO_PROPERTY,
          ...addressed,
          message: text(SELLER_MESSAGES),
          recipient_email: agent.email!,
          ...from,
          element: website ? 'exp-home-valuation' : from.element,
          seller: {
            facts: {
              lat: Number(Number(listing.geo_lat).toFixed(4)),
              lng: Number(Number(listing.geo_lon).toFixed(4)),
              property_type: listing.property_type,
              area_m2: area,
              ...(listing.bedrooms === null ? {} : { bedrooms: listing.bedrooms }),
              ...(listing.bathrooms === null ? {} : { bathrooms: Math.round(listing.bathrooms) }),
            },
            timeline: pick(TIMELINES),
            also_buying: rand() < 0.4,
          },
        });
      } else {
        rows.push({
          ...base,
          ...NO_PROPERTY,
          ...addressed,
          message: text(GENERAL_MESSAGES),
          recipient_email: agent.email!,
          ...from,
        });
      }
    }
  });
  return rows;
}

const NO_PROPERTY = {
  listing_id: null,
  property_title: null,
  property_address: null,
  property_price: null,
  seller: null,
} as const;

/** a listing's point is a number on the mainland (the seller's home is placed by it) */
function onMainland(l: ListingRow): boolean {
  const lat = Number(l.geo_lat);
  const lng = Number(l.geo_lon);
  return Boolean(l.geo_lat?.trim() && l.geo_lon?.trim()) && lat > -5 && lat < 1.5 && lng > -81 && lng < -75.2;
}

/** an Ecuadorian mobile number as people write it: +593 98 765 4321 */
function mobile(rand: () => number): string {
  const d = String(10_000_000 + Math.floor(rand() * 89_999_999));
  return `+593 9${d.slice(0, 1)} ${d.slice(1, 4)} ${d.slice(4)}`;
}
