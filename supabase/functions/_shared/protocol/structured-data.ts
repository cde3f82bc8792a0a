/**
 * schema.org JSON-LD for listings and agents, the same from the elements (structured-data="true")
 * and from the server's listing and agent pages: RealEstateListing with its Offer in US dollars and
 * the accommodation's facts, RealEstateAgent. URLs are absolute; the caller says where each page is.
 */
import type { AgentProfile } from './agent.ts';
import type { Property } from './listing.ts';

/** JSON that cannot end the script element, whatever the data holds. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

const ACCOMMODATION: Record<string, string> = { house: 'SingleFamilyResidence', apartment: 'Apartment' };

export function listingJsonLd(p: Property, url: string): Record<string, unknown> {
  const type = p.propertyType.trim().toLowerCase().replace(/\s+/g, '_');
  return {
    '@type': 'RealEstateListing',
    name: p.title,
    url,
    ...(p.description ? { description: p.description } : {}),
    ...(p.images.length ? { image: p.images.slice(0, 5) } : {}),
    ...(p.createdAt ? { datePosted: p.createdAt.slice(0, 10) } : {}),
    offers: { '@type': 'Offer', price: p.price, priceCurrency: 'USD', availability: 'https://schema.org/InStock', url },
    about: {
      '@type': ACCOMMODATION[type] ?? 'Accommodation',
      ...(p.propertyType ? { additionalType: p.propertyType } : {}),
      numberOfBedrooms: p.bedrooms,
      numberOfBathroomsTotal: p.bathrooms,
      ...(p.area > 0 ? { floorSize: { '@type': 'QuantitativeValue', value: p.area, unitCode: 'MTK' } } : {}),
      address: { '@type': 'PostalAddress', streetAddress: p.address || undefined, addressLocality: p.city || undefined, addressRegion: p.state || undefined, addressCountry: 'EC' },
      ...(p.approximate ? {} : { geo: { '@type': 'GeoCoordinates', latitude: p.lat, longitude: p.lng } }),
    },
  };
}

/** The listings of a page being shown, in order. */
export function listingsJsonLd(properties: Property[], urlOf: (p: Property) => string, offset = 0): Record<string, unknown> | null {
  if (!properties.length) return null;
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: properties.map((p, i) => ({ '@type': 'ListItem', position: offset + i + 1, item: listingJsonLd(p, urlOf(p)) })),
  };
}

export function agentJsonLd(a: AgentProfile, url: string): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'RealEstateAgent',
    name: a.name,
    url,
    ...(a.photo ? { image: a.photo } : {}),
    ...(a.email ? { email: a.email } : {}),
    ...(a.phone ? { telephone: a.phone } : {}),
    ...(a.about ? { description: a.about } : {}),
    ...(a.location ? { address: { '@type': 'PostalAddress', addressLocality: a.location, addressCountry: 'EC' } } : {}),
    ...(a.locationsServed.length ? { areaServed: a.locationsServed.map((name) => ({ '@type': 'Place', name })) } : {}),
    ...(a.languages.length ? { knowsLanguage: a.languages } : {}),
    ...(a.links.length ? { sameAs: a.links.map((l) => l.url) } : {}),
    worksFor: { '@type': 'RealEstateAgent', name: 'eXp Realty Ecuador' },
  };
}
