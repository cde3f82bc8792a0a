/**
 * <exp-home-valuation> (docs/valuation.md): the home's place (the location box: a sector, a city,
 * a street), its type, areas, rooms, year and features (./valuation-form.tsx); the estimate
 * public.estimate_value makes of it (a value and a range, its confidence, the comparable listings it
 * stood on, the place's market figure, buyer demand, the agent who serves the place) and what it is:
 * an estimate of an asking price, not an appraisal (./valuation-answer.tsx). Once answered, it
 * answers again as the facts change (./use-estimate.ts). Then the seller's lead (./seller-lead.tsx).
 */
import { useId, useState } from 'react';
import type { KnownType } from '../../core/protocol/listing.ts';
import type { HomeFacts } from '../../core/protocol/valuation.ts';
import { getClients } from '../lib/data/client.ts';
import type { ElementProps } from '../lib/element.tsx';
import { useElement } from '../lib/element.tsx';
import type { homeValuationAttributes } from './home-valuation.attributes.ts';
import { SellerLead } from './seller-lead.tsx';
import { ValuationAnswer } from './valuation-answer.tsx';
import { useEstimate } from './use-estimate.ts';
import { factsOf, startingHome, ValuationForm } from './valuation-form.tsx';

export function HomeValuation({
  place,
  propertyType,
  headingLevel,
  showTitle,
  showLead,
  tileUrl,
  tileAttribution,
}: ElementProps<typeof homeValuationAttributes>) {
  const { t, api, host } = useElement();
  const id = useId();
  const [home, setHome] = useState(() => startingHome(place, propertyType as KnownType));
  // a field's problem: the form finds some, the estimate others
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const Heading = headingLevel === 'h1' ? 'h1' : 'h2';
  const facts = factsOf(home);
  const key = JSON.stringify(facts);

  const { state, estimate } = useEstimate(getClients(api).rest, host, facts, key, setErrors);
  const e = state.estimate;

  return (
    <section
      className="flex flex-col gap-5 text-ink"
      part="root"
      aria-labelledby={showTitle ? `${id}-title` : undefined}
    >
      {showTitle ? (
        <div className="flex flex-col gap-2">
          <Heading
            id={`${id}-title`}
            className="m-0 text-[clamp(24px,4vw,32px)] font-bold leading-tight"
            part="heading"
          >
            {t('valuation.title')}
          </Heading>
          <p className="m-0 text-ink-muted max-w-[65ch]">{t('valuation.intro')}</p>
        </div>
      ) : null}
      <ValuationForm
        id={id}
        home={home}
        setHome={setHome}
        errors={errors}
        setErrors={setErrors}
        estimating={state.status === 'loading'}
        onEstimate={(f) => void estimate(f)}
        tileUrl={tileUrl}
        tileAttribution={tileAttribution}
      />
      <div aria-live="polite" aria-busy={state.status === 'loading'}>
        {state.status === 'error' ? (
          <p
            role="alert"
            className="m-0 rounded-md border border-danger bg-surface px-3 py-2 text-sm text-danger"
            part="error"
          >
            {t('valuation.errors.failed')}
          </p>
        ) : null}
        {e ? <ValuationAnswer estimate={e} /> : null}
      </div>
      {e && showLead && state.facts ? <SellerLead facts={state.facts as HomeFacts} estimate={e} /> : null}
    </section>
  );
}
