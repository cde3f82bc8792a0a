/**
 * The home as <exp-home-valuation>'s visitor gives it (docs/valuation.md): its place (the location
 * box: a sector, a city, a street; or a pin on the small map), its type, areas, rooms, year and
 * features. Checked by the function's own rules before an estimate is asked, the first refused
 * field focused.
 */
import { useState, type Dispatch, type FormEvent, type ReactNode, type SetStateAction } from 'react';
import { KNOWN_TYPES, typeLabel, type KnownType } from '../../core/protocol/listing.ts';
import { HOME_FEATURES, type HomeFacts, type HomeNumber } from '../../core/protocol/valuation.ts';
import { getClients } from '../lib/data/client.ts';
import type { PlaceSuggestion } from '../lib/data/places.ts';
import { useElement } from '../lib/element.tsx';
import { LocationBox, type LocationValue } from '../lib/location-box/location-box.tsx';
import { FormField } from '../lib/ui/form-field.tsx';
import { Options } from '../lib/ui/options.tsx';
import { factProblems } from './use-estimate.ts';
import { PinMap } from './pin-map.tsx';

type Numbers = Record<HomeNumber, string>;
const NO_NUMBERS: Numbers = { area_m2: '', lot_m2: '', bedrooms: '', bathrooms: '', year_built: '' };
type Errors = Partial<Record<string, string>>;

/** The home as typed: where it is (a place, or a pin's point), its type, its numbers as written, its features. */
interface HomeInput {
  where: LocationValue & { point?: [number, number] };
  type: KnownType;
  numbers: Numbers;
  features: string[];
}

/** The form as it opens: the element's place and type, nothing typed. */
export function startingHome(place: string, type: KnownType): HomeInput {
  return { where: place ? { text: place, place } : { text: '' }, type, numbers: NO_NUMBERS, features: [] };
}

const labelClass = 'text-sm font-medium text-ink';
const controlClass =
  'w-full h-11 rounded-md border border-line bg-surface px-3 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30';

/** The facts as the function takes them: the numbers given, the place or the point. */
export function factsOf({ where, type, numbers, features }: HomeInput): Partial<HomeFacts> {
  const facts: Partial<HomeFacts> = { property_type: type };
  if (where.point) [facts.lat, facts.lng] = where.point;
  else if (where.place) facts.place = where.place;
  for (const [k, v] of Object.entries(numbers) as Array<[HomeNumber, string]>) {
    const n = Number(v.replace(',', '.'));
    if (v.trim() !== '') facts[k] = Number.isFinite(n) ? n : NaN;
  }
  if (features.length) facts.features = features;
  return facts;
}

interface ValuationFormProps {
  /** the element's id, which the controls' ids begin with */
  id: string;
  home: HomeInput;
  setHome: Dispatch<SetStateAction<HomeInput>>;
  /** a field's problem (an i18n key) by the field's name; the estimate sets them too */
  errors: Errors;
  setErrors: Dispatch<SetStateAction<Errors>>;
  estimating: boolean;
  /** the facts, whole: ask for their estimate */
  onEstimate: (facts: Partial<HomeFacts>) => void;
  tileUrl?: string | undefined;
  tileAttribution?: string | undefined;
}

/** The home's place, type, areas, rooms, year and features, and the button that asks for the estimate. */
export function ValuationForm({
  id,
  home,
  setHome,
  errors,
  setErrors,
  estimating,
  onEstimate,
  tileUrl,
  tileAttribution,
}: ValuationFormProps) {
  const { t, api, shadowRoot } = useElement();
  const rest = getClients(api).rest;
  // the small map for a pin: where it opens (the picked place's middle, else Quito)
  const [pinAt, setPinAt] = useState<[number, number] | null>(null);
  const [around, setAround] = useState<[number, number]>([-0.1807, -78.4678]);
  const { where, type, numbers, features } = home;
  const setWhere = (w: HomeInput['where']) => setHome((h) => ({ ...h, where: w }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const facts = factsOf(home);
    const found = factProblems(facts);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      shadowRoot.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    onEstimate(facts);
  };

  const setNumber = (k: HomeNumber, v: string) => {
    setHome((h) => ({ ...h, numbers: { ...h.numbers, [k]: v } }));
    if (errors[k]) setErrors((x) => ({ ...x, [k]: undefined }));
  };

  /** a field; `wide` ones take the whole row on a phone (the rooms and the year go two by two) */
  const field = (name: string, label: string, control: ReactNode, optional = false, wide = false) => (
    <FormField
      controlId={`${id}-${name}`}
      className={`min-w-0 justify-end ${wide ? 'col-span-2 cq-md:col-span-1' : ''}`}
      labelClassName={labelClass}
      label={
        <>
          {label}
          {optional ? <span className="font-normal text-ink-muted"> ({t('valuation.fields.optional')})</span> : null}
        </>
      }
      error={errors[name] ? t(errors[name]) : undefined}
    >
      {control}
    </FormField>
  );
  const numberInput = (k: HomeNumber, decimals = false) => (
    <input
      id={`${id}-${k}`}
      name={k}
      type="text"
      inputMode={decimals ? 'decimal' : 'numeric'}
      autoComplete="off"
      value={numbers[k]}
      onChange={(e) => setNumber(k, e.target.value)}
      aria-invalid={errors[k] ? true : undefined}
      aria-describedby={errors[k] ? `${id}-${k}-error` : undefined}
      className={`${controlClass} ${errors[k] ? 'border-danger' : ''}`}
    />
  );
  const land = type === 'land';

  return (
    <form
      noValidate
      onSubmit={submit}
      className="grid grid-cols-2 gap-x-3 gap-y-4 cq-md:gap-x-4 rounded-brand border border-line bg-surface p-4 cq-md:p-6"
      part="form"
    >
      <div className="col-span-2 flex flex-col gap-1">
        <LocationBox
          rest={rest}
          value={where}
          label={t('valuation.fields.place')}
          labelClass={labelClass}
          controlClass={`${controlClass} ${errors.place ? 'border-danger' : ''}`}
          onChange={(v) => {
            setWhere(v);
            if (errors.place) setErrors((x) => ({ ...x, place: undefined }));
          }}
          onPick={(v, s) => {
            setWhere(v);
            const [w, south, east, north] = s.bbox;
            setAround([(south + north) / 2, (w + east) / 2]);
          }}
          onOpenListing={(_, s: PlaceSuggestion) => {
            // a street: the home is where that listing is
            const [w, south, east, north] = s.bbox;
            setWhere({ text: s.name, point: [(south + north) / 2, (w + east) / 2] });
            setAround([(south + north) / 2, (w + east) / 2]);
          }}
        />
        {pinAt ? (
          <PinMap
            center={pinAt}
            tileUrl={tileUrl}
            tileAttribution={tileAttribution}
            onPick={(lat, lng) => {
              setWhere({
                text: t('valuation.pin.text', { latitude: lat.toFixed(5), longitude: lng.toFixed(5) }),
                point: [lat, lng],
              });
              if (errors.place) setErrors((x) => ({ ...x, place: undefined }));
            }}
          />
        ) : (
          <button
            type="button"
            part="pin-button"
            onClick={() => setPinAt(where.point ?? around)}
            className="self-start bg-transparent border-0 p-0 text-sm text-primary underline cursor-pointer"
          >
            {t('valuation.pin.open')}
          </button>
        )}
        {errors.place ? (
          <p className="m-0 text-sm text-danger" part="field-error" role="alert">
            {t(errors.place)}
          </p>
        ) : null}
      </div>
      {field(
        'property_type',
        t('valuation.fields.type'),
        <select
          id={`${id}-property_type`}
          value={type}
          onChange={(ev) => {
            const chosen = ev.target.value as KnownType;
            setHome((h) => ({ ...h, type: chosen }));
          }}
          className={`exp-select ${controlClass} pr-8`}
        >
          <Options options={KNOWN_TYPES.map((k) => ({ value: k, label: typeLabel(k, t) }))} />
        </select>,
        false,
        true,
      )}
      {land
        ? field('lot_m2', t('valuation.fields.lotLand'), numberInput('lot_m2', true), false, true)
        : field('area_m2', t('valuation.fields.area'), numberInput('area_m2', true), false, true)}
      {land ? null : field('bedrooms', t('valuation.fields.bedrooms'), numberInput('bedrooms'), true)}
      {land ? null : field('bathrooms', t('valuation.fields.bathrooms'), numberInput('bathrooms', true), true)}
      {land ? null : field('year_built', t('valuation.fields.yearBuilt'), numberInput('year_built'), true)}
      {land || type === 'apartment'
        ? null
        : field('lot_m2', t('valuation.fields.lot'), numberInput('lot_m2', true), true)}
      {land ? null : (
        <fieldset className="col-span-2 m-0 p-0 border-0 flex flex-col gap-2">
          <legend className={`${labelClass} p-0 mb-1`}>
            {t('valuation.fields.features')}{' '}
            <span className="font-normal text-ink-muted">({t('valuation.fields.optional')})</span>
          </legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2">
            {HOME_FEATURES.map((f) => (
              <label key={f} className="inline-flex items-center gap-2 text-[15px] cursor-pointer">
                <input
                  type="checkbox"
                  className="w-4 h-4 accent-primary"
                  checked={features.includes(f)}
                  onChange={(ev) => {
                    const on = ev.target.checked;
                    setHome((h) => ({ ...h, features: on ? [...h.features, f] : h.features.filter((x) => x !== f) }));
                  }}
                />
                {t(`valuation.features.${f}`)}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className="col-span-2">
        <button
          type="submit"
          part="submit"
          disabled={estimating}
          className="inline-flex items-center justify-center h-11 rounded-md bg-primary px-5 text-[15px] font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover disabled:cursor-wait disabled:opacity-70"
        >
          {t(estimating ? 'valuation.estimating' : 'valuation.submit')}
        </button>
      </div>
    </form>
  );
}
