/**
 * The mapping from a feed's record to our listing (docs/import.md, "The mapping"), case by case,
 * and the document held to the table the code runs.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvRecords, FeedError, kyeroRecords, resoJsonRecords } from './feeds.ts';
import { parseCoordinate } from '../../core/protocol/text.ts';
import { lookupTables, mappingTable, mapRecord, type ImportedListing, type MappingDefaults } from './mapping.ts';
import { composeTitle, languageOf, number, plainText } from './values.ts';

const ES: MappingDefaults = { language: 'es', areaUnit: 'Square Feet' };
const base = {
  ListingKey: 'K1',
  ListPrice: 250000,
  UnparsedAddress: 'Av. Interoceánica km 12',
  City: 'Cumbayá',
  StateOrProvince: 'Pichincha',
};
const ok = (record: Record<string, unknown>, defaults = ES): ImportedListing => {
  const m = mapRecord(record, defaults);
  if (!m.ok) throw new Error(`quarantined: ${m.reasons.join('; ')}`);
  return m.listing;
};
const reasons = (record: Record<string, unknown>) => {
  const m = mapRecord(record, ES);
  return m.ok ? [] : m.reasons;
};

describe('mapping a RESO record (docs/import.md)', () => {
  it("a lease is a rental at a month's rent (LeaseAmount made monthly, else ListPrice); a holiday let is quarantined; a sale has no operation", () => {
    expect(
      ok({ ...base, PropertyType: 'Residential Lease', PropertySubType: 'Apartment', ListPrice: 950 }),
    ).toMatchObject({
      operation: 'rent',
      price: 950,
      property_type: 'apartment',
    });
    expect(
      ok({
        ...base,
        PropertyType: 'ResidentialLease',
        LeaseAmount: 14_400,
        LeaseAmountFrequency: 'Annually',
        ListPrice: 1,
      }),
    ).toMatchObject({
      operation: 'rent',
      price: 1200,
    });
    const weekly = mapRecord(
      { ...base, PropertyType: 'Residential Lease', LeaseAmount: 300, LeaseAmountFrequency: 'Weekly' },
      ES,
    );
    expect(weekly.ok && weekly.listing.price).toBe(1300);
    expect(weekly.notes).toContain('rent 300 Weekly made 1300 a month');
    expect(
      ok({
        ...base,
        PropertyType: 'Commercial Lease',
        PropertySubType: 'Office',
        LeaseAmount: 2500,
        LeaseAmountFrequency: 'Monthly',
      }),
    ).toMatchObject({
      operation: 'rent',
      price: 2500,
      property_type: 'office',
    });
    expect(
      reasons({ ...base, PropertyType: 'Residential Lease', LeaseAmount: 80, LeaseAmountFrequency: 'Daily' }),
    ).toEqual(['a holiday let (rent Daily): this site lists homes to live in']);
    expect(
      reasons({ ...base, PropertyType: 'Residential Lease', LeaseAmount: 80, LeaseAmountFrequency: 'Seasonal' }),
    ).toEqual(['a holiday let (rent Seasonal): this site lists homes to live in']);
    expect(reasons({ ...base, PropertyType: 'Residential Lease', ListPrice: undefined })).toEqual(['no price']);
    expect(ok({ ...base, PropertyType: 'Residential' }).operation).toBeUndefined();
    // suites and quintas are types of their own
    expect(ok({ ...base, PropertySubType: 'Studio' }).property_type).toBe('suite');
    expect(ok({ ...base, PropertySubType: 'Quinta' }).property_type).toBe('quinta');
  });

  it('docs/import.md shows the table and the lookups the code runs', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/import.md'), 'utf8');
    expect(doc).toContain(`<!-- mapping -->\n${mappingTable()}\n<!-- /mapping -->`);
    expect(doc).toContain(`<!-- lookups -->\n${lookupTables()}\n<!-- /lookups -->`);
  });

  it('square feet become square metres; acres, hectares and square metres too; an unknown unit is reported, not guessed', () => {
    expect(ok({ ...base, LivingArea: 1500, LivingAreaUnits: 'Square Feet' }).square_feet).toBe(139.4);
    expect(ok({ ...base, LivingArea: 1500 }).square_feet).toBe(139.4);
    expect(ok({ ...base, LivingArea: 180, LivingAreaUnits: 'Square Meters' }).square_feet).toBe(180);
    expect(ok({ ...base, LivingArea: 180 }, { language: 'es', areaUnit: 'Square Meters' }).square_feet).toBe(180);
    expect(ok({ ...base, LotSizeArea: 0.5, LotSizeUnits: 'Acres' }).lot_size).toBe(2023.4);
    expect(ok({ ...base, LotSizeArea: 1.2, LotSizeUnits: 'Hectares' }).lot_size).toBe(12000);
    expect(ok({ ...base, LotSizeSquareFeet: 10000 }).lot_size).toBe(929);
    const m = mapRecord({ ...base, LivingArea: 90, LivingAreaUnits: 'Varas' }, ES);
    expect(m.ok && m.listing.square_feet).toBe(null);
    expect(m.notes).toEqual(['living area unit "Varas"']);
  });

  it('reads what an Ecuadorian asks first: the alícuota by the month, the parking spaces, a storage unit, furnished, pets; what cannot be read is left out (and an unknown value said)', () => {
    expect(ok({ ...base, AssociationFee: 85 })).toMatchObject({ hoa_fee: 85 });
    expect(ok({ ...base, AssociationFee: '300', AssociationFeeFrequency: 'Quarterly' }).hoa_fee).toBe(100);
    expect(ok({ ...base, AssociationFee: 1200, AssociationFeeFrequency: 'Annually' }).hoa_fee).toBe(100);
    expect(ok({ ...base, AssociationFee: 25, AssociationFeeFrequency: 'Weekly' }).hoa_fee).toBe(108.33);
    const once = mapRecord({ ...base, AssociationFee: 500, AssociationFeeFrequency: 'OneTime' }, ES);
    expect(once.ok && once.listing.hoa_fee).toBe(undefined);
    expect(once.notes).toEqual(['alícuota 500 OneTime']);
    expect(ok({ ...base, ParkingTotal: 2 }).parking_spaces).toBe(2);
    expect(ok({ ...base, GarageSpaces: 1, CarportSpaces: 1 }).parking_spaces).toBe(2);
    expect(ok({ ...base, ParkingTotal: 2.5 }).parking_spaces).toBe(null);
    expect(ok({ ...base, StorageYN: 'Y' }).storage_unit).toBe(true);
    expect(ok({ ...base, StorageYN: false }).storage_unit).toBe(false);
    expect(ok({ ...base, OtherStructures: ['Shed', 'Storage'] }).storage_unit).toBe(true);
    expect(ok(base).storage_unit).toBe(null);
    expect(ok({ ...base, Furnished: 'Partially' }).furnished).toBe('partly');
    expect(ok({ ...base, Furnished: 'Unfurnished' }).furnished).toBe('no');
    expect(ok({ ...base, Furnished: true }).furnished).toBe('yes');
    expect(ok({ ...base, Furnished: 'Negotiable' }).furnished).toBe(null);
    const odd = mapRecord({ ...base, Furnished: 'Amoblado a medias' }, ES);
    expect(odd.ok && odd.listing.furnished).toBe(null);
    expect(odd.notes).toEqual(['furnished "Amoblado a medias"']);
    expect(ok({ ...base, PetsAllowed: ['Cats OK', 'Size Limit'] }).pets_allowed).toBe(true);
    expect(ok({ ...base, PetsAllowed: 'No' }).pets_allowed).toBe(false);
    expect(ok({ ...base, PetsAllowed: ['Call'] }).pets_allowed).toBe(null);
  });

  it('reads numbers as feeds write them, in English or Spanish', () => {
    const cases: Array<[unknown, number | null]> = [
      [250000, 250000],
      ['250000', 250000],
      ['250,000.00', 250000],
      ['$ 250,000', 250000],
      ['250.000', 250000],
      ['1.250.000,50', 1250000.5],
      ['2,5', 2.5],
      ['2.5', 2.5],
      ['1,500', 1500],
      ['0.750', 0.75],
      ['-0.2031', -0.2031],
      ['-78.4322', -78.4322],
      ['call us', null],
      ['', null],
      [null, null],
      ['1e9', null],
    ];
    for (const [input, expected] of cases) expect(number(input), String(input)).toBe(expected);
    // coordinates are never grouped: three decimals stay decimals
    for (const [input, expected] of [
      ['-1.790', -1.79],
      ['-78,432', -78.432],
      [-0.2, -0.2],
      ['1.234.567', null],
      ['abc', null],
    ] as Array<[unknown, number | null]>)
      expect(parseCoordinate(input, Infinity), String(input)).toBe(expected);
    expect(ok({ ...base, Latitude: '-1.790', Longitude: '-80.760' }).geo_lat).toBe('-1.79');
  });

  it("maps statuses to on or off the market, keeping the feed's own and reporting one it does not know", () => {
    expect(ok({ ...base }).status).toBe('1');
    expect(ok({ ...base, StandardStatus: 'Active' }).status).toBe('1');
    expect(ok({ ...base, StandardStatus: 'Active Under Contract' }).status).toBe('1');
    expect(ok({ ...base, StandardStatus: 'ActiveUnderContract' }).status).toBe('1');
    for (const s of ['Closed', 'Withdrawn', 'Expired', 'Canceled', 'Pending', 'Hold', 'Coming Soon'])
      expect(ok({ ...base, StandardStatus: s }).status, s).not.toBe('1');
    const odd = mapRecord({ ...base, StandardStatus: 'Vendida' }, ES);
    expect(odd.ok && [odd.listing.status, odd.listing.source_status]).toEqual(['vendida', 'Vendida']);
    expect(odd.notes).toEqual(['status "Vendida"']);
    expect(ok({ ...base, MlsStatus: 'Expired' }).status).toBe('expired');
  });

  it('maps types by the subtype first, reporting and keeping one it does not know', () => {
    expect(ok({ ...base, PropertyType: 'Residential', PropertySubType: 'Single Family Residence' }).property_type).toBe(
      'house',
    );
    expect(ok({ ...base, PropertyType: 'Residential', PropertySubType: 'Condominium' }).property_type).toBe(
      'apartment',
    );
    expect(ok({ ...base, PropertyType: 'Land', PropertySubType: 'Unimproved Land' }).property_type).toBe('land');
    expect(ok({ ...base, PropertyType: 'Commercial Sale', PropertySubType: 'Office' }).property_type).toBe('office');
    expect(ok({ ...base, PropertyType: 'Commercial Sale', PropertySubType: 'Retail' }).property_type).toBe(
      'business_premises',
    );
    expect(ok({ ...base, PropertyType: 'Commercial Sale' }).property_type).toBe('commercial_building');
    expect(ok({ ...base, PropertySubType: 'Departamento' }).property_type).toBe('apartment');
    const odd = mapRecord({ ...base, PropertyType: 'Marina', PropertySubType: 'Boat Slip' }, ES);
    expect(odd.ok && odd.listing.property_type).toBe('boat slip');
    expect(odd.notes).toEqual(['property type "Marina / Boat Slip"']);
  });

  it('quarantines what cannot be a listing, with every reason', () => {
    expect(reasons({ ...base, ListPrice: 0 })).toEqual(['no price']);
    expect(reasons({ ...base, ListPrice: 'call us' })).toEqual(['no price']);
    expect(reasons({ ...base, UnparsedAddress: '  ' })).toEqual(['no address']);
    expect(reasons({ ListPrice: 1 })).toEqual(['no ListingKey', 'no address']);
    expect(reasons({ ...base, Latitude: 25.77, Longitude: -80.19 })).toEqual([
      'coordinates 25.77, -80.19 are outside Ecuador',
    ]);
    expect(reasons({ ...base, Country: 'US' })).toEqual(['country "US" is not Ecuador']);
    // the Galápagos are Ecuador
    expect(ok({ ...base, Latitude: -0.7436, Longitude: -90.3137 }).geo_lat).toBe('-0.7436');
    // 0, 0 is "no position", not the Gulf of Guinea
    expect(ok({ ...base, Latitude: 0, Longitude: 0 }).geo_lat).toBe(null);
    expect(ok({ ...base, Country: 'Ecuador' }).country_code).toBe('EC');
  });

  it('keeps remarks as text: markup reduced to its words, scripts gone, entities read', () => {
    expect(plainText('<p>Casa <b>amplia</b> &amp; luminosa</p><script>alert(1)</script><p>Con jardín</p>')).toBe(
      'Casa amplia & luminosa\nCon jardín',
    );
    expect(plainText('Línea uno<br/>Línea dos &#233;xito &nbsp;fin')).toBe('Línea uno\nLínea dos éxito fin');
    expect(plainText('<img src=x onerror=alert(1)>Hola')).toBe('Hola');
    expect(plainText('2 < 3 and 5 > 4')).toBe('2 < 3 and 5 > 4');
    expect(ok({ ...base, PublicRemarks: 'x'.repeat(30_000) }).description?.length).toBe(20_000);
  });

  it('reads features from the RESO yes/no fields and lists', () => {
    expect(
      ok({
        ...base,
        PoolPrivateYN: true,
        ViewYN: 'Y',
        WaterfrontYN: false,
        GarageSpaces: 2,
        NewConstructionYN: 'true',
        Cooling: ['Central Air'],
      }).features,
    ).toEqual(['pool', 'view', 'garage', 'new_construction', 'air_conditioning']);
    expect(ok({ ...base, Cooling: ['None'], PoolFeatures: 'None' }).features).toEqual([]);
  });

  it("composes a title in the listing's language when the feed has none; keeps one it has", () => {
    expect(languageOf('Hermosa casa con jardín en el valle de Tumbaco', 'en')).toBe('es');
    expect(languageOf('A lovely house with a garden in the valley', 'es')).toBe('en');
    expect(languageOf(null, 'en')).toBe('en');
    expect(
      ok({
        ...base,
        PropertySubType: 'Single Family Residence',
        BedroomsTotal: 3,
        SubdivisionName: 'Santa Inés',
        PublicRemarks: 'Casa con piscina y jardín',
      }).title,
    ).toBe('Casa de 3 dormitorios en Santa Inés');
    expect(
      ok({
        ...base,
        PropertySubType: 'Condominium',
        BedroomsTotal: 1,
        PublicRemarks: 'A bright flat with a view of the park',
      }).title,
    ).toBe('1-bedroom apartment in Cumbayá');
    expect(
      ok({
        ...base,
        PropertySubType: 'Condominium',
        BedroomsTotal: 1,
        PublicRemarks: 'Departamento con vista al parque',
      }).title,
    ).toBe('Departamento de 1 dormitorio en Cumbayá');
    expect(
      composeTitle(
        { property_type: 'land', bedrooms: null, sector: null, city: 'Tumbaco', square_feet: null, lot_size: 1500 },
        'es',
      ),
    ).toBe('Terreno de 1.500 m² en Tumbaco');
    expect(
      composeTitle(
        { property_type: 'office', bedrooms: null, sector: null, city: null, square_feet: 80, lot_size: null },
        'en',
      ),
    ).toBe('Office in Ecuador');
    expect(ok({ ...base, ListingTitle: 'Casa esquinera <b>única</b>' }).title).toBe('Casa esquinera <b>única</b>');
  });

  it('matches photos in order, only photos, at most 50', () => {
    const media = [
      { MediaURL: 'https://p.example/2.jpg', Order: 2, MediaKey: 'b' },
      { MediaURL: 'https://p.example/plan.pdf', Order: 0, MediaCategory: 'FloorPlan' },
      {
        MediaURL: 'https://p.example/1.jpg',
        Order: 1,
        MediaKey: 'a',
        MediaCategory: 'Photo',
        MediaModificationTimestamp: '2026-11-01T10:00:00Z',
      },
    ];
    expect(ok({ ...base, Media: media }).media).toEqual([
      { url: 'https://p.example/1.jpg', key: 'a', order: 1, modified: '2026-11-01T10:00:00Z' },
      { url: 'https://p.example/2.jpg', key: 'b', order: 2, modified: '' },
    ]);
    expect(
      ok({
        ...base,
        Media: Array.from({ length: 80 }, (_, i) => ({ MediaURL: `https://p.example/${i}.jpg`, Order: i })),
      }).media,
    ).toHaveLength(50);
  });
});

describe('reading the feeds that come as documents', () => {
  it("RESO JSON: the Web API's answer or an array; HTML where JSON was expected is refused, naming what came", () => {
    expect(resoJsonRecords('{"value":[{"ListingKey":"A"}]}')).toEqual([{ ListingKey: 'A' }]);
    expect(resoJsonRecords('[{"ListingKey":"A"}]')).toEqual([{ ListingKey: 'A' }]);
    expect(() => resoJsonRecords('<!doctype html><html><body>Login</body></html>')).toThrow(
      new FeedError('not JSON: the feed is an HTML page'),
    );
    expect(() => resoJsonRecords('{"error":"x"}')).toThrow(/JSON without records/);
  });

  it('CSV: RESO columns, commas or semicolons, quoted fields, photos in one column; a header without ListingKey is refused', () => {
    const csv =
      'ListingKey;ListPrice;UnparsedAddress;PublicRemarks;Photos\n"K1";"250.000";"Calle 1";"Con ""jardín""; y patio";https://p.example/1.jpg|https://p.example/2.jpg\n';
    const [r] = csvRecords(csv);
    expect(ok(r as Record<string, unknown>).price).toBe(250000);
    expect(r).toMatchObject({ ListingKey: 'K1', UnparsedAddress: 'Calle 1', PublicRemarks: 'Con "jardín"; y patio' });
    expect(r?.Media).toEqual([
      { MediaURL: 'https://p.example/1.jpg', Order: 0, MediaCategory: 'Photo' },
      { MediaURL: 'https://p.example/2.jpg', Order: 1, MediaCategory: 'Photo' },
    ]);
    expect(csvRecords('')).toEqual([]);
    expect(() => csvRecords('Key,Price\nA,1\n')).toThrow(/no ListingKey column/);
    expect(() => csvRecords('<html>')).toThrow(/not CSV: the feed is an HTML page/);
  });

  it('Kyero v3: read as RESO names; rentals by the month or the week, a holiday let and a foreign currency quarantined; a DOCTYPE and broken XML refused', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<root><kyero><feed_version>3</feed_version></kyero>
<property><id>KY-1</id><date>2026-11-20 10:00:00</date><ref>R1</ref><price>185000</price><currency>USD</currency><price_freq>sale</price_freq>
<type>Villa</type><town>Olón</town><province>Santa Elena</province><country>Ecuador</country><location_detail>Playa Bruja</location_detail>
<location><latitude>-1.79</latitude><longitude>-80.76</longitude></location><beds>3</beds><baths>2</baths><pool>1</pool><new_build>0</new_build>
<surface_area><built>160</built><plot>400</plot></surface_area><desc><en>Near the beach &amp; the town</en><es>Cerca de la playa</es></desc>
<features><feature>Garage</feature><feature>Vista al mar</feature></features>
<images><image id="1"><url>https://p.example/1.jpg</url></image><image id="2"><url>https://p.example/2.jpg</url></image></images></property>
<property><id>KY-2</id><price>900</price><price_freq>month</price_freq><currency>EUR</currency><town>Quito</town></property>
<property><id>KY-3</id><price>850</price><price_freq>month</price_freq><currency>USD</currency><type>Apartment</type><town>Quito</town><location_detail>La Carolina</location_detail></property>
<property><id>KY-4</id><price>200</price><price_freq>week</price_freq><type>Apartment</type><town>Salinas</town><location_detail>Chipipe</location_detail></property>
<property><id>KY-5</id><price>90</price><price_freq>night</price_freq><type>Apartment</type><town>Montañita</town><location_detail>Centro</location_detail></property>
</root>`;
    const [a, b, rent, week, night] = kyeroRecords(xml);
    const l = ok(a as Record<string, unknown>);
    expect(l).toMatchObject({
      source_key: 'KY-1',
      listing_ref: 'R1',
      price: 185000,
      property_type: 'house',
      city: 'Olón',
      sector: 'Playa Bruja',
      address: 'Playa Bruja, Olón',
      square_feet: 160,
      lot_size: 400,
      bedrooms: 3,
      description: 'Cerca de la playa',
      status: '1',
    });
    expect(l.features).toEqual(['pool', 'view', 'garage']);
    expect(l.media.map((m) => [m.key, m.url])).toEqual([
      ['1', 'https://p.example/1.jpg'],
      ['2', 'https://p.example/2.jpg'],
    ]);
    expect(l.source_modified_at).toBe('2026-11-20T10:00:00.000Z');
    expect(reasons(b as Record<string, unknown>)).toEqual(["price in EUR: Ecuador's prices are in US dollars"]);
    // rentals (issue 46): a month's rent as it is, a week's made monthly and said so, a night's kept out
    expect(l.operation).toBeUndefined();
    expect(ok(rent as Record<string, unknown>)).toMatchObject({
      source_key: 'KY-3',
      operation: 'rent',
      price: 850,
      property_type: 'apartment',
      sector: 'La Carolina',
    });
    const weekly = mapRecord(week as Record<string, unknown>, ES);
    expect(weekly.ok && weekly.listing).toMatchObject({ operation: 'rent', price: 866.67 });
    expect(weekly.notes).toEqual(['rent 200 Weekly made 866.67 a month']);
    expect(reasons(night as Record<string, unknown>)).toEqual([
      'a holiday let (rent Nightly): this site lists homes to live in',
    ]);
    expect(() => kyeroRecords('<?xml version="1.0"?><!DOCTYPE root [<!ENTITY x "y">]><root>&x;</root>')).toThrow(
      /DOCTYPE/,
    );
    // a DTD wherever it stands: after a long comment, between two comments (the prefix check once
    // read them as one), inside the document; a 15 KB feed must not grow into a megabyte
    const bomb = `<!DOCTYPE root [<!ENTITY a "${'x'.repeat(1000)}"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>`;
    const desc = `<property><id>KY-9</id><price>1</price><desc><es>${'&b;'.repeat(99)}</es></desc></property>`;
    for (const feed of [
      `<?xml version="1.0"?><!--${' '.repeat(15_000)}-->${bomb}<root><kyero><feed_version>3</feed_version></kyero>${desc}</root>`,
      `<?xml version="1.0"?><!-- a -->${bomb}<!-- b --><root><kyero><feed_version>3</feed_version></kyero>${desc}</root>`,
      `<root><kyero><feed_version>3</feed_version></kyero>${bomb}${desc}</root>`,
      `<root><!doctype root SYSTEM "file:///etc/passwd"></root>`,
    ]) {
      expect(() => kyeroRecords(feed), feed.slice(0, 80)).toThrow(/DOCTYPE/);
    }
    // comments are fine
    expect(
      kyeroRecords(
        '<?xml version="1.0"?><!-- one --><!-- two --><root><kyero><feed_version>3</feed_version></kyero></root>',
      ),
    ).toEqual([]);
    expect(() =>
      kyeroRecords('<root><kyero><feed_version>3</feed_version></kyero><property><id>1</property></root>'),
    ).toThrow(/does not parse/);
    expect(() => kyeroRecords('<html><body>Maintenance</body></html>')).toThrow(
      /not a Kyero feed: expected <root>, the feed is an HTML page/,
    );
    expect(() => kyeroRecords('<root><kyero><feed_version>4</feed_version></kyero></root>')).toThrow(
      /version 3 is read/,
    );
    expect(kyeroRecords('<root><kyero><feed_version>3</feed_version></kyero></root>')).toEqual([]);
  });
});
