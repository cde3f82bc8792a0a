/**
 * schema.org JSON-LD for listings and agents, the same from the elements (structured-data="true")
 * and from the server's listing and agent pages: RealEstateListing with its Offer in US dollars and
 * the accommodation's facts, the agent as a Person who works for the brokerage. URLs are absolute;
 * the caller says where each page is. Typed with schema-dts: only what the vocabulary allows.
 */
import type {
  Accommodation,
  ItemList,
  ListItem,
  LocationFeatureSpecification,
  Person,
  Place,
  RealEstateListing,
  WithContext,
} from 'schema-dts';
import type { AgentProfile } from './agent.ts';
import type { Property } from './listing.ts';

/** JSON that cannot end the script element, whatever the data holds. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const ACCOMMODATION = {
  house: 'SingleFamilyResidence',
  quinta: 'SingleFamilyResidence',
  apartment: 'Apartment',
  suite: 'Apartment',
} as const;

/** The features a listing's data says, as schema.org's LocationFeatureSpecification. */
function feature(rows: Array<[string, number | boolean | null]>): LocationFeatureSpecification[] | undefined {
  const known = rows.filter((r): r is [string, number | boolean] => r[1] !== null);
  return known.length
    ? known.map(([name, value]) => ({ '@type': 'LocationFeatureSpecification', name, value }))
    : undefined;
}

/**
 * A listing as schema.org describes it. Optional facts are left undefined (JSON drops them), not
 * spread in, so that the compiler checks every property against schema-dts's types: a property
 * the vocabulary does not give a type is a type error (docs/decisions.md #24).
 */
export function listingJsonLd(p: Property, url: string, monthUnit?: string): RealEstateListing {
  const type = p.propertyType.trim().toLowerCase().replace(/\s+/g, '_');
  const about: Accommodation = {
    '@type': (ACCOMMODATION as Record<string, 'SingleFamilyResidence' | 'Apartment'>)[type] ?? 'Accommodation',
    additionalType: p.propertyType || undefined,
    numberOfBedrooms: p.bedrooms,
    numberOfBathroomsTotal: p.bathrooms,
    floorSize: p.area > 0 ? { '@type': 'QuantitativeValue', value: p.area, unitCode: 'MTK' } : undefined,
    address: {
      '@type': 'PostalAddress',
      streetAddress: p.address || undefined,
      addressLocality: p.city || undefined,
      addressRegion: p.state || undefined,
      addressCountry: 'EC',
    },
    geo: p.approximate ? undefined : { '@type': 'GeoCoordinates', latitude: p.lat, longitude: p.lng },
    // what an Ecuadorian listing says besides (docs/product.md §3)
    petsAllowed: p.facts.pets ?? undefined,
    amenityFeature: feature([
      ['Parking spaces', p.facts.parking],
      ['Storage unit', p.facts.storage],
      ['Furnished', p.facts.furnished === null ? null : p.facts.furnished !== 'no'],
    ]),
    additionalProperty:
      p.facts.hoaFee === null
        ? undefined
        : { '@type': 'PropertyValue', name: 'HOA fee (alícuota)', value: p.facts.hoaFee, unitText: 'USD per month' },
  };
  return {
    '@type': 'RealEstateListing',
    name: p.title,
    url,
    description: p.description || undefined,
    image: p.images.length ? p.images.slice(0, 5) : undefined,
    datePosted: p.createdAt ? p.createdAt.slice(0, 10) : undefined,
    // a rent is leased out by the month (docs/product.md "Rent and buy"): "/mes", "/month" as the page says it
    offers:
      p.operation === 'rent'
        ? {
            '@type': 'OfferForLease',
            price: p.price,
            priceCurrency: 'USD',
            availability: 'https://schema.org/InStock',
            url,
            priceSpecification: {
              '@type': 'UnitPriceSpecification',
              price: p.price,
              priceCurrency: 'USD',
              unitCode: 'MON',
              unitText: monthUnit ?? 'per month',
            },
          }
        : { '@type': 'Offer', price: p.price, priceCurrency: 'USD', availability: 'https://schema.org/InStock', url },
    about,
  } satisfies RealEstateListing;
}

/** The listings of a page being shown, in order. */
export function listingsJsonLd(
  properties: Property[],
  urlOf: (p: Property) => string,
  offset = 0,
  monthUnit?: string,
): WithContext<ItemList> | null {
  if (!properties.length) return null;
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: properties.map(
      (p, i) =>
        ({
          '@type': 'ListItem',
          position: offset + i + 1,
          item: listingJsonLd(p, urlOf(p), monthUnit),
        }) satisfies ListItem,
    ),
  } satisfies WithContext<ItemList>;
}

/** Who the agent works for and what the agent is called in the page's language. */
export interface AgentContext {
  /** "Real estate agent", "Agente inmobiliario" */
  jobTitle: string;
  brokerage: { name: string; url: string };
}

/**
 * An agent as a Person who works for the brokerage. The places the agent serves are an Offer of
 * the agent's service (schema.org gives areaServed to an Offer, not to a Person).
 */
export function agentJsonLd(a: AgentProfile, url: string, context: AgentContext): WithContext<Person> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Person',
    name: a.name,
    url,
    jobTitle: context.jobTitle,
    worksFor: { '@type': 'RealEstateAgent', name: context.brokerage.name, url: context.brokerage.url },
    image: a.photo || undefined,
    email: a.email || undefined,
    telephone: a.phone || undefined,
    description: a.about || undefined,
    address: a.location ? { '@type': 'PostalAddress', addressLocality: a.location, addressCountry: 'EC' } : undefined,
    knowsLanguage: a.languages.length ? a.languages : undefined,
    sameAs: a.links.length ? a.links.map((l) => l.url) : undefined,
    makesOffer: a.locationsServed.length
      ? {
          '@type': 'Offer',
          itemOffered: {
            '@type': 'Service',
            serviceType: context.jobTitle,
            provider: { '@type': 'Person', name: a.name },
          },
          areaServed: a.locationsServed.map((name) => ({ '@type': 'Place', name }) satisfies Place),
        }
      : undefined,
  } satisfies WithContext<Person>;
}
