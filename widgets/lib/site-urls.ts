/**
 * The site's address rules (Spanish under /es, a page per listing) for the elements. They live in
 * the protocol folder the server shares (supabase/functions/_shared/protocol/site-urls.ts).
 */
export { listingPath, localizedPath, parseListingPath, slugify, splitLangPath, type SiteLang } from '../../supabase/functions/_shared/protocol/site-urls.ts';
