/**
 * schema.org JSON-LD for what an element shows (RealEstateListing, RealEstateAgent), written as a
 * `<script type="application/ld+json">` child of the element's host, in the light DOM where search
 * engines read it. Only when the page asks for it (`structured-data="true"`); removed with the
 * element or when the data goes away.
 */
import { useEffect } from 'react';
import type { AgentProfile } from './agents/agent.ts';
import type { Property } from './listing/mapping.ts';

const MARK = 'data-exp-structured-data';

/** JSON that cannot end the script element, whatever the data holds. */
export function jsonLdText(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export function writeStructuredData(host: HTMLElement, data: unknown): void {
  let script = [...host.children].find((c) => c.hasAttribute(MARK)) as HTMLScriptElement | undefined;
  if (data == null) {
    script?.remove();
    return;
  }
  if (!script) {
    script = document.createElement('script');
    script.type = 'application/ld+json';
    script.setAttribute(MARK, '');
    host.append(script);
  }
  const text = jsonLdText(data);
  if (script.textContent !== text) script.textContent = text;
}

export function useStructuredData(host: HTMLElement, enabled: boolean, data: unknown): void {
  useEffect(() => {
    writeStructuredData(host, enabled ? data : null);
  }, [host, enabled, data]);
  useEffect(() => () => writeStructuredData(host, null), [host]);
}

function absolute(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url, location.href).href;
  } catch {
    return undefined;
  }
}

/** The page's own address with `?property=<id>`, the link that opens this listing's detail. */
export function listingUrl(id: string): string {
  const url = new URL(location.href);
  url.search = '';
  url.hash = '';
  url.searchParams.set('property', id);
  return url.href;
}

export function listingJsonLd(p: Property): Record<string, unknown> {
  return {
    '@type': 'RealEstateListing',
    name: p.title,
    url: listingUrl(p.id),
    ...(p.description ? { description: p.description } : {}),
    ...(p.images.length ? { image: p.images.slice(0, 5).map(absolute).filter(Boolean) } : {}),
    ...(p.createdAt ? { datePosted: p.createdAt.slice(0, 10) } : {}),
    offers: { '@type': 'Offer', price: p.price, priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    about: {
      '@type': 'Accommodation',
      ...(p.propertyType ? { additionalType: p.propertyType } : {}),
      numberOfBedrooms: p.bedrooms,
      numberOfBathroomsTotal: p.bathrooms,
      ...(p.area > 0 ? { floorSize: { '@type': 'QuantitativeValue', value: p.area, unitCode: 'MTK' } } : {}),
      address: { '@type': 'PostalAddress', streetAddress: p.address || undefined, addressLocality: p.city || undefined, addressRegion: p.state || undefined, addressCountry: 'EC' },
      ...(p.approximate ? {} : { geo: { '@type': 'GeoCoordinates', latitude: p.lat, longitude: p.lng } }),
    },
  };
}

/** The listings of the page being shown, in order. */
export function listingsJsonLd(properties: Property[], offset = 0): Record<string, unknown> | null {
  if (!properties.length) return null;
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: properties.map((p, i) => ({ '@type': 'ListItem', position: offset + i + 1, item: listingJsonLd(p) })),
  };
}

export function agentJsonLd(a: AgentProfile): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'RealEstateAgent',
    name: a.name,
    url: absolute(location.pathname),
    ...(a.photo ? { image: absolute(a.photo) } : {}),
    ...(a.email ? { email: a.email } : {}),
    ...(a.phone ? { telephone: a.phone } : {}),
    ...(a.about ? { description: a.about } : {}),
    ...(a.location ? { address: { '@type': 'PostalAddress', addressLocality: a.location, addressCountry: 'EC' } } : {}),
    ...(a.locationsServed.length ? { areaServed: a.locationsServed.map((name) => ({ '@type': 'Place', name })) } : {}),
    ...(a.languages.length ? { knowsLanguage: a.languages } : {}),
    ...(a.links.length ? { sameAs: a.links.map((l) => l.url) } : {}),
  };
}
