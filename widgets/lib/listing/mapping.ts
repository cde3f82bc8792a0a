/**
 * A listing row as the elements show it (docs/product.md §3). The rules live in the protocol folder
 * the server's listing pages share (supabase/functions/_shared/protocol/listing.ts); elements reach
 * them through here.
 */
export { ENGLISH_DEFAULTS, fallbackPosition, listingPosition, mapListing, normaliseImages, placeholderIndex, typeLabel, type MappingDefaults, type Property, type PropertyAgent } from '../../../supabase/functions/_shared/protocol/listing.ts';
