import { afterEach, describe, expect, it } from 'vitest';
import { jsonLdText, listingJsonLd, listingsJsonLd, writeStructuredData } from './structured-data.ts';
import { mapListing, ENGLISH_DEFAULTS } from './listing/mapping.ts';

describe('structured data', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('cannot end its script element, whatever the data holds', () => {
    const text = jsonLdText({ name: '</script><script>alert(1)</script> & <!--' });
    expect(text).not.toMatch(/<|>|&/);
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script> & <!--' });
  });

  it('writes one script into the host, updates it, and removes it', () => {
    const host = document.createElement('div');
    document.body.append(host);
    writeStructuredData(host, { a: 1 });
    writeStructuredData(host, { a: 2 });
    const scripts = host.querySelectorAll('script[type="application/ld+json"]');
    expect(scripts).toHaveLength(1);
    expect(JSON.parse(scripts[0]?.textContent ?? '')).toEqual({ a: 2 });
    writeStructuredData(host, null);
    expect(host.querySelector('script')).toBeNull();
  });

  it('describes a listing as a RealEstateListing in dollars and square metres, with its position only when it is its own', () => {
    const p = mapListing({ id: 7, title: 'Casa', price: '250000', square_feet: 180, bedrooms: 3, bathrooms: 2, city: 'Cuenca', state: 'Azuay', geo_lat: -2.9, geo_lon: -79, created_at: '2026-10-01T10:00:00Z', images: ['/media/a.svg'] }, 'http://api.test', ENGLISH_DEFAULTS);
    const ld = listingJsonLd(p);
    expect(ld).toMatchObject({ '@type': 'RealEstateListing', name: 'Casa', datePosted: '2026-10-01', offers: { price: 250000, priceCurrency: 'USD' } });
    expect((ld.about as Record<string, unknown>).floorSize).toEqual({ '@type': 'QuantitativeValue', value: 180, unitCode: 'MTK' });
    expect((ld.about as Record<string, unknown>).geo).toEqual({ '@type': 'GeoCoordinates', latitude: -2.9, longitude: -79 });
    expect(String(ld.url)).toContain('property=7');
    const approx = listingJsonLd(mapListing({ id: 8, city: 'Cuenca', geo_lat: 'n/a' }, 'http://api.test', ENGLISH_DEFAULTS));
    expect((approx.about as Record<string, unknown>).geo).toBeUndefined();
    expect(listingsJsonLd([p], 24)).toMatchObject({ '@type': 'ItemList', itemListElement: [{ position: 25 }] });
    expect(listingsJsonLd([])).toBeNull();
  });
});
