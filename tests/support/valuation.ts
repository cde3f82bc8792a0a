/**
 * What a home may ask (docs/valuation.md), for the suites of tests/contract/valuation-estimate.test.ts
 * and valuation-seller.test.ts: the home they value (a 250 m² three-bedroom house in Cumbayá) and
 * what a seller's browser does on the suite's server (useDeliveries in deliveries.ts): ask for an
 * estimate through the data API, post to a function as a client of its own.
 */
import type { Deliveries } from './deliveries.ts';
import { clientHeaders } from './servers.ts';

export const CUMBAYA = { place: 'cumbaya', property_type: 'house', area_m2: 250, bedrooms: 3 };

/** A seller's calls on the suite's server (read when a test runs). */
export function valuationOn(d: Deliveries) {
  let ip = 0;

  const estimate = async (facts: Record<string, unknown>) => d.rest.rpc('estimate_value', { facts });
  const post = (fn: string, body: Record<string, unknown>) =>
    fetch(`${d.server.url}/functions/v1/${fn}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...clientHeaders(`10.44.0.${++ip}`) },
      body: JSON.stringify(body),
    });
  return { estimate, post };
}
