/**
 * The display rules (docs/product.md §5) for the elements. They live in the protocol folder the
 * server shares (supabase/functions/_shared/protocol/format.ts); elements reach them through here.
 */
export { DEFAULT_PHONE_COUNTRY_CODE, formatArea, formatCount, formatPrice, formatPricePill, initials, normalisePhone, priceValue, telHref } from '../../supabase/functions/_shared/protocol/format.ts';
