/**
 * How a search's filters are said (docs/architecture.md "Filters"): each filter's words in a search's
 * description (the alert form, its mails and pages: core/protocol/alerts.ts describeSearch) and on
 * its chip, by the filter table's key (core/protocol/filters.ts). Apart from the table so that the
 * search's first screen (the bar, the count, the cards) carries neither them nor their texts: the
 * chips and the alert dialog load them when they show.
 */
import { formatArea, formatPrice } from './format.ts';
import { typeLabel } from './listing.ts';
import {
  FEATURE_FLAGS,
  FILTERS,
  parsePlace,
  type AppliedFilters,
  type FeatureFlag,
  type FilterKey,
  type Operation,
  type SaidFilter,
} from './filters.ts';

type Translate = (key: string, params?: Record<string, unknown>) => string;

interface Words {
  /** how a search's description says it */
  say: (value: never, t: Translate) => string;
  /** how its chip says it (else as `say`) */
  chip?: (value: never, t: Translate) => string;
}

const price = (key: string) => (n: number, t: Translate) => t(key, { price: formatPrice(n) });
const area = (key: string) => (n: number, t: Translate) => t(key, { area: formatArea(n) });

// every filter the table says (one with a `part`) has its words: one without them does not compile
// prettier-ignore
const WORDS: Record<SaidFilter, Words> = {
  operation: { say: (v: Operation, t) => t(`phrases.${v}`), chip: (v: Operation, t) => t(`search.chips.${v}`) },
  propertyType: { say: (v: string, t) => typeLabel(v, t) },
  place: { say: (v: string, t) => t('phrases.city', { city: placeWords(v) }), chip: (v: string) => placeWords(v) },
  city: { say: (v: string, t) => t('phrases.city', { city: v }), chip: (v: string) => v },
  bbox: { say: (_, t) => t('phrases.mapArea') },
  polygon: { say: (_, t) => t('phrases.drawnArea'), chip: (_, t) => t('search.chips.polygon') },
  keywords: { say: (v: string, t) => t('phrases.words', { words: v }), chip: (v: string, t) => t('search.chips.keywords', { words: v }) },
  beds: { say: (n: number, t) => t('phrases.beds', { count: n }) },
  baths: { say: (n: number, t) => t('phrases.baths', { count: n }) },
  minSqft: { say: area('phrases.minArea') },
  maxSqft: { say: area('phrases.maxArea') },
  minPrice: { say: price('phrases.minPrice') },
  maxPrice: { say: price('phrases.maxPrice') },
  yearBuiltFrom: { say: (n: number, t) => t('phrases.builtFrom', { year: n }) },
  yearBuiltTo: { say: (n: number, t) => t('phrases.builtTo', { year: n }) },
  minLotSize: { say: area('phrases.minLot') },
  maxLotSize: { say: area('phrases.maxLot') },
  features: { say: (v: FeatureFlag[], t) => t('phrases.features', { list: v.map((f) => t(`search.filters.feature.${f}`).toLowerCase()).join(', ') }) },
  maxHoaFee: { say: price('phrases.maxHoaFee') },
  parking: { say: (n: number, t) => t('phrases.parking', { count: n }) },
  storage: { say: (_, t) => t('phrases.storage'), chip: (_, t) => t('search.chips.storage') },
  furnished: { say: (_, t) => t('phrases.furnished'), chip: (_, t) => t('search.chips.furnished') },
  pets: { say: (_, t) => t('phrases.pets'), chip: (_, t) => t('search.chips.pets') },
  deliveryBy: { say: (n: number, t) => t('phrases.deliveryBy', { year: n }) },
  stage: { say: (v: string, t) => t(`phrases.stage.${v}`), chip: (v: string, t) => t(`phrases.stageChip.${v}`) },
  openHouse: { say: (_, t) => t('phrases.openHouse'), chip: (_, t) => t('search.chips.openHouse') },
  agentId: { say: (_, t) => t('phrases.agent') },
};

/** A place's path in words when its name was not kept: 'quito/la-carolina' -> 'La Carolina, Quito'. */
function placeWords(path: string): string {
  const p = parsePlace(path);
  const words = (slug: string) =>
    slug
      .split('-')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ');
  if (!p) return path;
  if ('province' in p) return words(p.province);
  return p.sector ? `${words(p.sector)}, ${words(p.city)}` : words(p.city);
}

/**
 * Each applied filter in words, in the table's order: the search's chips (one per feature, so each
 * can be removed) and its description (describeSearch).
 */
export function filterPhrases(
  f: AppliedFilters,
  t: Translate,
  as: 'say' | 'chip',
): Array<{ key: FilterKey; flag?: FeatureFlag; part: 'what' | 'where' | 'rest'; text: string }> {
  const out: Array<{ key: FilterKey; flag?: FeatureFlag; part: 'what' | 'where' | 'rest'; text: string }> = [];
  for (const spec of FILTERS) {
    const v = f[spec.key];
    const said = WORDS[spec.key as SaidFilter] as Words | undefined;
    if (v === undefined || !spec.part || !said) continue;
    const words = (as === 'chip' ? said.chip : undefined) ?? said.say;
    if (spec.kind === 'place' && f.placeName)
      out.push({
        key: spec.key,
        part: spec.part,
        text: as === 'chip' ? f.placeName : t('phrases.city', { city: f.placeName }),
      });
    else if (spec.kind === 'features' && as === 'chip')
      for (const flag of FEATURE_FLAGS.filter((x) => f.features?.[x]))
        out.push({ key: spec.key, flag, part: spec.part, text: t(`search.filters.feature.${flag}`) });
    else if (spec.kind === 'features')
      out.push({
        key: spec.key,
        part: spec.part,
        text: (words as (x: FeatureFlag[], t: Translate) => string)(
          FEATURE_FLAGS.filter((x) => f.features?.[x]),
          t,
        ),
      });
    else out.push({ key: spec.key, part: spec.part, text: (words as (x: unknown, t: Translate) => string)(v, t) });
  }
  return out;
}
