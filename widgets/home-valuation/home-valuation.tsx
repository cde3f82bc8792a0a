/**
 * <exp-home-valuation> (docs/valuation.md): the home's place (the location box: a sector, a city,
 * a street), its type, areas, rooms, year and features; the estimate public.estimate_value makes
 * of it (a value and a range, its confidence, the comparable listings it stood on, the place's
 * market figure, buyer demand, the agent who serves the place) and what it is: an estimate of an
 * asking price, not an appraisal. Once answered, it answers again as the facts change. Then the
 * seller's lead (./seller-lead.tsx).
 */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { formatArea, formatCount, formatPrice } from '../../core/protocol/format.ts';
import { formatChange } from '../../core/protocol/market.ts';
import { KNOWN_TYPES, normaliseImages, typeLabel, type KnownType } from '../../core/protocol/listing.ts';
import { checkHomeFacts, demandText, HOME_FEATURES, parseEstimate, type Estimate, type HomeFacts, type HomeNumber } from '../../core/protocol/valuation.ts';
import { agentPath, listingPath, marketPath } from '../../core/routes.ts';
import { getClients } from '../lib/data/client.ts';
import type { PlaceSuggestion } from '../lib/data/places.ts';
import type { ElementProps } from '../lib/element.tsx';
import { useElement } from '../lib/element.tsx';
import { emit } from '../lib/events.ts';
import { LocationBox, type LocationValue } from '../lib/location-box/location-box.tsx';
import { siteUrl } from '../lib/site-links.ts';
import type { homeValuationAttributes } from './home-valuation.attributes.ts';
import { SellerLead } from './seller-lead.tsx';
import { PinMap } from './pin-map.tsx';
import { FormField } from '../lib/ui/form-field.tsx';
import { Options } from '../lib/ui/options.tsx';

export interface ValuationDetail {
  value: number | null;
  low: number | null;
  high: number | null;
  confidence: Estimate['confidence'];
  /** the place it is in: 'quito/inaquito' */
  place: string | null;
}

declare module '../lib/events.ts' {
  interface ExpEventMap {
    'exp-valuation-estimated': ValuationDetail;
  }
}

/** How long the facts rest before an estimate is asked again. */
const WAIT_MS = 150;

type Numbers = Record<HomeNumber, string>;
const NO_NUMBERS: Numbers = { area_m2: '', lot_m2: '', bedrooms: '', bathrooms: '', year_built: '' };

const labelClass = 'text-sm font-medium text-ink';
const controlClass = 'w-full h-11 rounded-md border border-line bg-surface px-3 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30';

/** The facts as the function takes them: the numbers given, the place or the point. */
function factsOf(where: LocationValue & { point?: [number, number] }, type: KnownType, numbers: Numbers, features: string[]): Partial<HomeFacts> {
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

export function HomeValuation({ place, propertyType, headingLevel, showTitle, showLead, tileUrl, tileAttribution }: ElementProps<typeof homeValuationAttributes>) {
  const { t, api, host, shadowRoot } = useElement();
  const id = useId();
  const rest = getClients(api).rest;
  const [where, setWhere] = useState<LocationValue & { point?: [number, number] }>(() => (place ? { text: place, place } : { text: '' }));
  const [type, setType] = useState<KnownType>(propertyType as KnownType);
  const [numbers, setNumbers] = useState<Numbers>(NO_NUMBERS);
  const [features, setFeatures] = useState<string[]>([]);
  // the small map for a pin: where it opens (the picked place's middle, else Quito)
  const [pinAt, setPinAt] = useState<[number, number] | null>(null);
  const [around, setAround] = useState<[number, number]>([-0.1807, -78.4678]);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [state, setState] = useState<{ status: 'idle' | 'loading' | 'ready' | 'error'; estimate?: Estimate; facts?: Partial<HomeFacts> }>({ status: 'idle' });
  const asked = useRef(0);
  const answered = useRef(false);
  const Heading = headingLevel === 'h1' ? 'h1' : 'h2';
  const facts = factsOf(where, type, numbers, features);
  const key = JSON.stringify(facts);

  /** The facts' problems as the form says them (the function's own rules, core/protocol/valuation.ts). */
  const problems = (f: Partial<HomeFacts>) => {
    const found = checkHomeFacts(f);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(found)) out[k] = k === 'place' ? 'valuation.errors.place' : `valuation.errors.${v}`;
    return out;
  };

  const estimate = async (f: Partial<HomeFacts>) => {
    const n = ++asked.current;
    setState((s) => ({ ...s, status: 'loading' }));
    try {
      const { data, error } = await rest.rpc('estimate_value', { facts: f });
      if (n !== asked.current) return;
      if (error) {
        // a refused fact names its field ("area_m2: must be ..."): shown by that field
        const field = error.code === '22023' ? /^(\w+):/.exec(error.message)?.[1] : undefined;
        if (field) setErrors({ [field === 'lat' || field === 'lng' ? 'place' : field]: field === 'place' || field === 'lat' ? 'valuation.errors.place' : 'valuation.errors.invalid' });
        setState({ status: field ? 'idle' : 'error' });
        return;
      }
      const e = parseEstimate(data);
      answered.current = true;
      setState({ status: 'ready', estimate: e, facts: f });
      emit(host, 'exp-valuation-estimated', { value: e.value, low: e.low, high: e.high, confidence: e.confidence, place: e.place?.path ?? null });
    } catch (error) {
      if (n !== asked.current) return;
      console.error('[exp-home-valuation] the estimate failed:', error);
      setState({ status: 'error' });
    }
  };

  // once answered, it answers again as the facts change (when they are whole)
  useEffect(() => {
    if (!answered.current) return;
    const found = problems(facts);
    if (Object.keys(found).length) return;
    const timer = setTimeout(() => void estimate(facts), WAIT_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the facts are the key
  }, [key]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = problems(facts);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      shadowRoot.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    void estimate(facts);
  };

  const setNumber = (k: HomeNumber, v: string) => {
    setNumbers((n) => ({ ...n, [k]: v }));
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
  const e = state.estimate;

  return (
    <section className="flex flex-col gap-5 text-ink" part="root" aria-labelledby={showTitle ? `${id}-title` : undefined}>
      {showTitle ? (
        <div className="flex flex-col gap-2">
          <Heading id={`${id}-title`} className="m-0 text-[clamp(24px,4vw,32px)] font-bold leading-tight" part="heading">
            {t('valuation.title')}
          </Heading>
          <p className="m-0 text-ink-muted max-w-[65ch]">{t('valuation.intro')}</p>
        </div>
      ) : null}
      <form noValidate onSubmit={submit} className="grid grid-cols-2 gap-x-3 gap-y-4 cq-md:gap-x-4 rounded-brand border border-line bg-surface p-4 cq-md:p-6" part="form">
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
                setWhere({ text: t('valuation.pin.text', { latitude: lat.toFixed(5), longitude: lng.toFixed(5) }), point: [lat, lng] });
                if (errors.place) setErrors((x) => ({ ...x, place: undefined }));
              }}
            />
          ) : (
            <button type="button" part="pin-button" onClick={() => setPinAt(where.point ?? around)} className="self-start bg-transparent border-0 p-0 text-sm text-primary underline cursor-pointer">
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
          <select id={`${id}-property_type`} value={type} onChange={(ev) => setType(ev.target.value as KnownType)} className={`exp-select ${controlClass} pr-8`}>
            <Options values={KNOWN_TYPES} label={(k) => typeLabel(k, t)} />
          </select>,
          false,
          true,
        )}
        {land ? field('lot_m2', t('valuation.fields.lotLand'), numberInput('lot_m2', true), false, true) : field('area_m2', t('valuation.fields.area'), numberInput('area_m2', true), false, true)}
        {land ? null : field('bedrooms', t('valuation.fields.bedrooms'), numberInput('bedrooms'), true)}
        {land ? null : field('bathrooms', t('valuation.fields.bathrooms'), numberInput('bathrooms', true), true)}
        {land ? null : field('year_built', t('valuation.fields.yearBuilt'), numberInput('year_built'), true)}
        {land || type === 'apartment' ? null : field('lot_m2', t('valuation.fields.lot'), numberInput('lot_m2', true), true)}
        {land ? null : (
          <fieldset className="col-span-2 m-0 p-0 border-0 flex flex-col gap-2">
            <legend className={`${labelClass} p-0 mb-1`}>
              {t('valuation.fields.features')} <span className="font-normal text-ink-muted">({t('valuation.fields.optional')})</span>
            </legend>
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {HOME_FEATURES.map((f) => (
                <label key={f} className="inline-flex items-center gap-2 text-[15px] cursor-pointer">
                  <input
                    type="checkbox"
                    className="w-4 h-4 accent-primary"
                    checked={features.includes(f)}
                    onChange={(ev) => setFeatures((list) => (ev.target.checked ? [...list, f] : list.filter((x) => x !== f)))}
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
            disabled={state.status === 'loading'}
            className="inline-flex items-center justify-center h-11 rounded-md bg-primary px-5 text-[15px] font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover disabled:cursor-wait disabled:opacity-70"
          >
            {t(state.status === 'loading' ? 'valuation.estimating' : 'valuation.submit')}
          </button>
        </div>
      </form>
      <div aria-live="polite" aria-busy={state.status === 'loading'}>
        {state.status === 'error' ? (
          <p role="alert" className="m-0 rounded-md border border-danger bg-surface px-3 py-2 text-sm text-danger" part="error">
            {t('valuation.errors.failed')}
          </p>
        ) : null}
        {e ? <Result estimate={e} /> : null}
      </div>
      {e && showLead && state.facts ? <SellerLead facts={state.facts as HomeFacts} estimate={e} /> : null}
    </section>
  );
}

/** The estimate: the value and its range, the place's market, buyer demand, the agent, the comparables, what it is. */
function Result({ estimate: r }: { estimate: Estimate }) {
  const { t, api, lang, site } = useElement();
  const place = r.place?.name ?? '';
  const change = r.market?.yearBefore ? r.market.median / r.market.yearBefore - 1 : null;
  return (
    <div className="flex flex-col gap-4" part="result">
      <div className="rounded-brand border border-line bg-surface-subtle px-5 py-4 flex flex-col gap-1">
        <p className="m-0 text-sm text-ink-muted">{t('valuation.result.heading')}</p>
        {r.value === null ? (
          <p className="m-0 text-[15px]" part="value">
            {t('valuation.result.none')}
          </p>
        ) : (
          <>
            <p className="m-0 text-[clamp(28px,6vw,40px)] font-bold leading-tight" part="value">
              {formatPrice(r.value)}
            </p>
            <p className="m-0 text-[15px]" part="range">
              {t('valuation.result.range', { low: formatPrice(r.low), high: formatPrice(r.high) })} · {t('valuation.result.perM2', { price: formatPrice(r.usdM2) })}
            </p>
            <p className="m-0 text-sm font-semibold" part="confidence">
              {t(`valuation.confidence.${r.confidence}`)}
            </p>
          </>
        )}
      </div>
      {r.market ? (
        <p className="m-0 text-[15px]" part="market">
          {t('valuation.market.line', { place: r.market.name, price: formatPrice(r.market.median) })}
          {change !== null ? ` (${t('valuation.market.change', { change: formatChange(change) })})` : ''}{' '}
          <a className="text-primary underline" href={siteUrl(marketPath(r.market.path), site, lang)}>
            {t('valuation.market.link')}
          </a>
        </p>
      ) : null}
      <p className="m-0 text-[15px]" part="demand">
        {demandText(r, t)}
      </p>
      {r.agent && place ? (
        <p className="m-0 text-[15px]" part="agent">
          {t('valuation.agent', { place })}:{' '}
          <a className="text-primary underline font-semibold" href={siteUrl(agentPath(r.agent.id), site, lang)}>
            {r.agent.name}
          </a>
        </p>
      ) : null}
      {r.comparables.length ? (
        <div className="flex flex-col gap-2">
          <h3 className="m-0 text-lg font-semibold">{t('valuation.comparables.heading')}</h3>
          <ul className="m-0 p-0 list-none grid gap-3 grid-cols-[minmax(0,1fr)] cq-md:grid-cols-[repeat(2,minmax(0,1fr))]" part="comparables">
            {r.comparables.map((c) => {
              const image = normaliseImages(c.images, api.url)[0];
              return (
                <li key={c.id} className="flex gap-3 min-w-0 rounded-md border border-line bg-surface p-2" part="comparable">
                  {image ? <img src={image} alt="" width={96} height={72} loading="lazy" className="w-24 h-[72px] shrink-0 rounded object-cover bg-surface-subtle" /> : null}
                  <div className="min-w-0 flex flex-col gap-0.5 text-sm">
                    <a className="block font-semibold text-ink underline-offset-2 hover:underline truncate" href={siteUrl(listingPath(c.id, c.title, 'en'), site, lang)}>
                      {c.title || typeLabel(c.propertyType, t)}
                    </a>
                    <span>
                      <strong>{formatPrice(c.price)}</strong> · {formatArea(c.area)} · {t('valuation.result.perM2', { price: formatPrice(c.usdM2) })}
                    </span>
                    <span className="text-ink-muted">
                      {t('valuation.comparables.distance', { distance: c.distance >= 1000 ? `${(c.distance / 1000).toFixed(1)} km` : `${formatCount(Math.round(c.distance / 10) * 10)} m` })} ·{' '}
                      {t('valuation.comparables.adjusted', { price: formatPrice(c.adjusted) })}
                    </span>
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      <p className="m-0 text-sm text-ink-muted" part="note">
        {t('valuation.disclaimer')}
      </p>
    </div>
  );
}
