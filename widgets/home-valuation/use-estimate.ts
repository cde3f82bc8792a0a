/**
 * The estimate of <exp-home-valuation>'s facts (docs/valuation.md), asked of public.estimate_value:
 * its state, and once answered, answered again as the facts change (when they are whole, after
 * they rest WAIT_MS); a refused fact is said by its field.
 */
import type { PostgrestClient } from '@supabase/postgrest-js';
import { useEffect, useRef, useState } from 'react';
import { checkHomeFacts, parseEstimate, type Estimate, type HomeFacts } from '../../core/protocol/valuation.ts';
import { emit } from '../lib/events.ts';

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

type Errors = Partial<Record<string, string>>;
export type EstimateState = {
  status: 'idle' | 'loading' | 'ready' | 'error';
  estimate?: Estimate;
  facts?: Partial<HomeFacts>;
};

/** The facts' problems as the form says them (the function's own rules, core/protocol/valuation.ts). */
export function factProblems(f: Partial<HomeFacts>): Record<string, string> {
  const found = checkHomeFacts(f);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(found))
    out[k] = k === 'place' ? 'valuation.errors.place' : `valuation.errors.${v}`;
  return out;
}

export function useEstimate(
  rest: PostgrestClient,
  host: HTMLElement,
  facts: Partial<HomeFacts>,
  key: string,
  setErrors: (errors: Errors) => void,
) {
  const [state, setState] = useState<EstimateState>({ status: 'idle' });
  const asked = useRef(0);
  const answered = useRef(false);

  const estimate = async (f: Partial<HomeFacts>) => {
    const n = ++asked.current;
    setState((s) => ({ ...s, status: 'loading' }));
    try {
      const { data, error } = await rest.rpc('estimate_value', { facts: f });
      if (n !== asked.current) return;
      if (error) {
        // a refused fact names its field ("area_m2: must be ..."): shown by that field
        const field = error.code === '22023' ? /^(\w+):/.exec(error.message)?.[1] : undefined;
        if (field)
          setErrors({
            [field === 'lat' || field === 'lng' ? 'place' : field]:
              field === 'place' || field === 'lat' ? 'valuation.errors.place' : 'valuation.errors.invalid',
          });
        setState({ status: field ? 'idle' : 'error' });
        return;
      }
      const e = parseEstimate(data);
      answered.current = true;
      setState({ status: 'ready', estimate: e, facts: f });
      emit(host, 'exp-valuation-estimated', {
        value: e.value,
        low: e.low,
        high: e.high,
        confidence: e.confidence,
        place: e.place?.path ?? null,
      });
    } catch (error) {
      if (n !== asked.current) return;
      console.error('[exp-home-valuation] the estimate failed:', error);
      setState({ status: 'error' });
    }
  };

  // once answered, it answers again as the facts change (when they are whole)
  useEffect(() => {
    if (!answered.current) return;
    const found = factProblems(facts);
    if (Object.keys(found).length) return;
    const timer = setTimeout(() => void estimate(facts), WAIT_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the facts are the key
  }, [key]);
  return { state, estimate };
}
