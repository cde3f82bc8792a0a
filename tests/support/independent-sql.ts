/**
 * The search's rules written in SQL apart from the migrations, for the tests that hold the data
 * server to them (tests/contract/rest.test.ts, the e2e specs): what counts as active, what the free
 * text reads, what the words "piscina" and "pool" find.
 */

/** An active listing of the site (internal.is_public_listing). */
export const ACTIVE = "country_code = 'EC' and status = '1'";

/** What the search's free text reads: the city, the sector and the address, folded. */
export const PLACE_TEXT = "public.search_fold(concat_ws(' ', city, sector, address))";

/** What the words read: the title and the description, folded. */
export const WORDS_TEXT = "public.search_fold(concat_ws(' ', title, description))";

/** A listing the words "piscina" or "pool" find: either word (or its plural), or the pool feature, whose words they are. */
export const POOL = `(${WORDS_TEXT} ~ '\\mpiscinas?\\M' or ${WORDS_TEXT} ~ '\\mpools?\\M' or 'pool' = any(features))`;
