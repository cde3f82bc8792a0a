/**
 * The search's rules written in SQL apart from the migrations, for the tests that hold the data
 * server to them (tests/contract/rest-*.test.ts, the e2e specs): what counts as active, what the
 * free text reads, what the words "piscina" and "pool" find.
 */

/** An active listing of the site, for sale or for rent (internal.listings.is_public): its page, the sitemaps. */
export const PUBLIC = "country_code = 'EC' and status = '1'";

/** What a search that does not say rent shows: an active listing for sale. */
export const FOR_SALE = "operation = 'sale'";
export const ACTIVE = `${PUBLIC} and ${FOR_SALE}`;

/** An active listing for rent (a search with operation rent). */
export const FOR_RENT = `${PUBLIC} and operation = 'rent'`;

/** What the search's free text reads: the city, the sector and the address, folded. */
export const PLACE_TEXT = "public.search_fold(concat_ws(' ', city, sector, address))";

/** What the words read: the title and the description, folded. */
export const WORDS_TEXT = "public.search_fold(concat_ws(' ', title, description))";

/** A listing the words "piscina" or "pool" find: either word (or its plural), or the pool feature, whose words they are. */
export const POOL = `(${WORDS_TEXT} ~ '\\mpiscinas?\\M' or ${WORDS_TEXT} ~ '\\mpools?\\M' or 'pool' = any(features))`;

/** A text's words: folded, then stemmed in Spanish and in English (internal.text_words). */
const textWords = (text: string) =>
  `(to_tsvector('spanish', public.search_fold(${text})) || to_tsvector('english', public.search_fold(${text})))`;
const TITLE_AND_FEATURES = "coalesce(title, '') || ' ' || internal.feature_words(features)";

/** The words a listing keeps for its title: its title and its features' words (title_words). */
export const TITLE_WORDS_RULE = textWords(TITLE_AND_FEATURES);

/** The words a listing keeps: its title's weighted A, its description's B (words). */
export const WORDS_RULE = `(setweight(${textWords(TITLE_AND_FEATURES)}, 'A') || setweight(${textWords('description')}, 'B'))`;

/** How many listings keep words that are not their text's (0 when every write kept them). */
export const WORDS_OFF_RULE = `select count(*)::int as n from internal.listings where words is distinct from ${WORDS_RULE} or title_words is distinct from ${TITLE_WORDS_RULE}`;
