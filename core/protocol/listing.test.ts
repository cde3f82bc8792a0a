import { describe, expect, it } from 'vitest';
import {
  directionsUrl,
  ENGLISH_DEFAULTS,
  fallbackPosition,
  mapListing,
  normaliseImages,
  placeholderIndex,
  roomTexts,
  typeLabel,
} from './listing.ts';
import en from '../locales/en.json' with { type: 'json' };
import { translatorFor } from '../translate.ts';

const API = 'https://api.example';
const LABELS: Record<string, string> = {
  'listing.types.house': 'House',
  'listing.types.apartment': 'Apartment',
  'listing.types.land': 'Land',
  'listing.types.office': 'Office',
  'listing.types.business_premises': 'Business Premises',
  'listing.types.commercial_building': 'Commercial Building',
  'listing.types.residential': 'Residential',
  'listing.types.suite': 'Suite',
  'listing.types.quinta': 'Quinta',
};
const t = (k: string) => LABELS[k] ?? k;

describe('listing mapping (docs/product.md §3)', () => {
  it('applies the defaults for missing fields', () => {
    const p = mapListing({ id: 7 }, API);
    expect(p).toMatchObject({
      id: '7',
      title: 'Property Listing',
      address: '',
      price: 0,
      bedrooms: 0,
      bathrooms: 0,
      area: 0,
      propertyType: '',
      city: '',
      state: '',
      description: '',
      images: [],
      agent: undefined,
    });
    expect(typeLabel(p.propertyType, t)).toBe('Residential');
    expect(mapListing({ id: 7 }, API, { title: 'Propiedad', agentName: 'Agente' }).title).toBe('Propiedad');
  });

  it('reads numbers and numeric strings', () => {
    const p = mapListing(
      {
        id: '12',
        price: '$ 145.000',
        bedrooms: '3',
        bathrooms: 2.5,
        square_feet: '92',
        geo_lat: ' -0.1762 ',
        geo_lon: '-78.4801',
      },
      API,
    );
    expect(p).toMatchObject({
      price: 145000,
      bedrooms: 3,
      bathrooms: 2.5,
      area: 92,
      lat: -0.1762,
      lng: -78.4801,
      approximate: false,
    });
  });

  it('places listings without usable coordinates near their city, else near Quito, marked approximate', () => {
    for (const bad of [
      {},
      { geo_lat: '', geo_lon: '' },
      { geo_lat: 'N/A', geo_lon: 'x' },
      { geo_lat: '123.4', geo_lon: '-78' },
      { geo_lat: null, geo_lon: '-78.5' },
    ]) {
      const p = mapListing({ id: 5, city: 'Cumbayá', ...bad }, API);
      expect(p.approximate).toBe(true);
      expect(Math.abs(p.lat - -0.2005)).toBeLessThanOrEqual(0.025);
      expect(Math.abs(p.lng - -78.43)).toBeLessThanOrEqual(0.025);
    }
    const unknown = mapListing({ id: 6, city: 'Pueblo Nuevo' }, API);
    expect(Math.abs(unknown.lat - -0.1807)).toBeLessThanOrEqual(0.025);
    expect(Math.abs(unknown.lng - -78.4678)).toBeLessThanOrEqual(0.025);
    // never the spec's Lima leftover, and the same place on every render
    expect(unknown.lat).toBeGreaterThan(-1);
    expect(fallbackPosition('6', 'Pueblo Nuevo')).toEqual(fallbackPosition('6', 'Pueblo Nuevo'));
    // a feed's exponent is not a coordinate (the rule: core/protocol/text.ts)
    expect(mapListing({ id: 7, city: 'Loja', geo_lat: '1e1', geo_lon: '-79' }, API).approximate).toBe(true);
  });

  it('builds an agent only when a name, an e-mail or a phone exists, with the default name', () => {
    expect(mapListing({ id: 1, agent_picture: '/media/a.svg' }, API).agent).toBeUndefined();
    const onlyMail = mapListing({ id: 1, city: 'Loja', agent_email: 'a@b.ec' }, API).agent;
    expect(onlyMail).toMatchObject({ name: 'Real Estate Agent', email: 'a@b.ec', phone: '', location: 'Loja' });
    const full = mapListing(
      {
        id: 1,
        state: 'Pichincha',
        agent_first_name: 'Ana ',
        agent_last_name: ' Vera',
        agent_phone: '099',
        agent_picture: ' /media/agents/agent-01.svg ',
      },
      API,
      ENGLISH_DEFAULTS,
    ).agent;
    expect(full).toMatchObject({
      name: 'Ana Vera',
      phone: '099',
      location: 'Pichincha',
      photo: 'https://api.example/media/agents/agent-01.svg',
    });
  });

  it('labels property types: the known ones, others title-cased with spaces', () => {
    expect(typeLabel('house', t)).toBe('House');
    expect(typeLabel('business_premises', t)).toBe('Business Premises');
    expect(typeLabel('Commercial Building', t)).toBe('Commercial Building');
    expect(typeLabel('hotel_boutique', t)).toBe('Hotel Boutique');
    expect(typeLabel('QUINTA', t)).toBe(t('listing.types.quinta'));
    expect(typeLabel('suite', t)).toBe('Suite');
    expect(typeLabel('castillo_antiguo', t)).toBe('Castillo Antiguo');
    expect(typeLabel('', t)).toBe('Residential');
  });

  it('normalises images: every shape, front cover first, unsafe URLs dropped', () => {
    expect(normaliseImages(['/a.svg', '/b.svg'], API)).toEqual([`${API}/a.svg`, `${API}/b.svg`]);
    expect(
      normaliseImages([{ url: '/a.svg' }, { src: '/b.svg' }, { url: '/c.svg', is_front_cover: true }], API),
    ).toEqual([`${API}/c.svg`, `${API}/a.svg`, `${API}/b.svg`]);
    expect(normaliseImages({ url: 'https://cdn.example/x.jpg' }, API)).toEqual(['https://cdn.example/x.jpg']);
    expect(normaliseImages('/one.svg', API)).toEqual([`${API}/one.svg`]);
    expect(
      normaliseImages(['javascript:alert(1)', 'data:image/png;base64,xx', '/ok.svg', '/ok.svg', 42, null], API),
    ).toEqual([`${API}/ok.svg`]);
    expect(normaliseImages(null, API)).toEqual([]);
    expect(mapListing({ id: 1, image: '/single.svg' }, API).images).toEqual([`${API}/single.svg`]);
  });

  it('keeps markup in text as text (no parsing happens here)', () => {
    const p = mapListing({ id: 1, title: '<img src=x onerror=alert(1)>', description: '<script>x</script>' }, API);
    expect(p.title).toBe('<img src=x onerror=alert(1)>');
    expect(p.description).toBe('<script>x</script>');
  });

  it('chooses the placeholder by id mod 5', () => {
    expect([0, 1, 5, 7, 14].map((n) => placeholderIndex(String(n)))).toEqual([0, 1, 0, 2, 4]);
  });
});

describe('directions to a listing (docs/product.md §2, Location)', () => {
  const base = {
    lat: -0.180653,
    lng: -78.467838,
    address: 'Av. Amazonas N34-12 & Av. República',
    city: 'Quito',
    state: 'Pichincha',
  };
  it('sends an exact position as coordinates', () => {
    const url = new URL(directionsUrl({ ...base, approximate: false }));
    expect(url.origin + url.pathname).toBe('https://www.google.com/maps/dir/');
    expect(url.searchParams.get('api')).toBe('1');
    expect(url.searchParams.get('destination')).toBe('-0.180653,-78.467838');
  });
  it('sends an approximate one as its address, never the made-up point', () => {
    const url = new URL(directionsUrl({ ...base, approximate: true }));
    expect(url.searchParams.get('destination')).toBe('Av. Amazonas N34-12 & Av. República, Quito, Pichincha, Ecuador');
    expect(url.href).not.toContain('-0.18');
    // the address's '&' stays inside the one parameter
    expect([...url.searchParams.keys()]).toEqual(['api', 'destination']);
  });
  it('names at least the country when the listing says nothing of its place', () => {
    const url = new URL(directionsUrl({ ...base, address: '', city: '', state: '', approximate: true }));
    expect(url.searchParams.get('destination')).toBe('Ecuador');
  });
});

describe('the rooms said beside a price (a card, a page, a mail)', () => {
  const english = translatorFor(en as Record<string, unknown>, 'en');
  it('says the rooms a home has, in the plural it needs, and none of a lot or a shop', () => {
    expect(roomTexts({ bedrooms: 3, bathrooms: 2.5 }, english)).toEqual([
      { room: 'beds', text: '3 beds' },
      { room: 'baths', text: '2.5 baths' },
    ]);
    expect(roomTexts({ bedrooms: 1, bathrooms: 1 }, english).map((r) => r.text)).toEqual(['1 bed', '1 bath']);
    expect(roomTexts({ bedrooms: 0, bathrooms: 0 }, english)).toEqual([]);
    expect(roomTexts({ bedrooms: 0, bathrooms: 1 }, english).map((r) => r.room)).toEqual(['baths']);
  });
});
