import { describe, expect, it } from 'vitest';
import { mapListing } from '../protocol/listing.ts';
import en from '../locales/en.json' with { type: 'json' };
import { translatorFor } from '../translate.ts';
import { listingFacts } from './listing-facts.tsx';

const t = translatorFor(en, 'en');
const labels = (row: Record<string, unknown>) => listingFacts(mapListing({ id: 1, ...row }, 'https://api.example'), t);

describe("a listing's facts", () => {
  it('says its bedrooms and bathrooms only when it has them: a lot none, a shop its bathroom, a house both', () => {
    expect(labels({ property_type: 'land', bedrooms: 0, bathrooms: 0, square_feet: 1200 })).toEqual([
      ['Area', '1,200 m²'],
      ['Type', 'Land'],
    ]);
    expect(
      labels({ property_type: 'business_premises', bedrooms: 0, bathrooms: 1, square_feet: 80 }).map(([l]) => l),
    ).toEqual(['Bathrooms', 'Area', 'Type']);
    expect(labels({ property_type: 'house', bedrooms: 3, bathrooms: 2.5, square_feet: 210 }).slice(0, 2)).toEqual([
      ['Bedrooms', '3'],
      ['Bathrooms', '2.5'],
    ]);
  });
});
