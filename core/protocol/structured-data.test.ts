import { describe, expect, it } from 'vitest';
import { ENGLISH_DEFAULTS, mapListing } from './listing.ts';
import { jsonLdText, listingJsonLd, listingsJsonLd } from './structured-data.ts';

describe('structured data', () => {
  it('cannot end its script element, whatever the data holds', () => {
    const text = jsonLdText({ name: '</script><script>alert(1)</script> & <!--' });
    expect(text).not.toMatch(/<|>|&/);
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script> & <!--' });
  });

  it('describes a listing as a RealEstateListing in dollars and square metres, with its position only when it is its own', () => {
    const p = mapListing(
      {
        id: 7,
        title: 'Casa',
        price: '250000',
        square_feet: 180,
        bedrooms: 3,
        bathrooms: 2,
        property_type: 'house',
        city: 'Cuenca',
        state: 'Azuay',
        geo_lat: -2.9,
        geo_lon: -79,
        created_at: '2026-10-01T10:00:00Z',
        images: ['/media/a.svg'],
      },
      'http://api.test',
      ENGLISH_DEFAULTS,
    );
    const ld = listingJsonLd(p, 'https://expecuador.example/properties/7-casa');
    expect(ld).toMatchObject({
      '@type': 'RealEstateListing',
      name: 'Casa',
      url: 'https://expecuador.example/properties/7-casa',
      datePosted: '2026-10-01',
      offers: { price: 250000, priceCurrency: 'USD' },
    });
    expect(ld.about).toMatchObject({
      '@type': 'SingleFamilyResidence',
      numberOfBedrooms: 3,
      numberOfBathroomsTotal: 2,
    });
    expect((ld.about as Record<string, unknown>).floorSize).toEqual({
      '@type': 'QuantitativeValue',
      value: 180,
      unitCode: 'MTK',
    });
    expect((ld.about as Record<string, unknown>).geo).toEqual({
      '@type': 'GeoCoordinates',
      latitude: -2.9,
      longitude: -79,
    });
    const approx = listingJsonLd(
      mapListing({ id: 8, city: 'Cuenca', geo_lat: 'n/a' }, 'http://api.test', ENGLISH_DEFAULTS),
      'https://x.example/8',
    );
    expect((approx.about as Record<string, unknown>).geo).toBeUndefined();
    expect(listingsJsonLd([p], (x) => `https://x.example/${x.id}`, 24)).toMatchObject({
      '@type': 'ItemList',
      itemListElement: [{ position: 25, item: { url: 'https://x.example/7' } }],
    });
    expect(listingsJsonLd([], () => '')).toBeNull();
  });
});
