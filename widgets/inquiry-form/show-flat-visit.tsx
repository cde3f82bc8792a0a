/**
 * "Visit the show flat" beside a new development's inquiry (docs/projects.md "Leads"): the visits'
 * scheduler (docs/visits.md) for the project's own listing, so the times offered are those of the
 * project's agent and the request reaches that agent, as a visit to any listing does. A part of its
 * own, loaded only where the form asks for it (`visit`).
 */
import { useMemo } from 'react';
import { listingDefaults, mapListing } from '../../core/protocol/listing.ts';
import { useElement } from '../lib/element.tsx';
import { addTexts } from '../lib/i18n.ts';
import { VisitScheduler } from '../lib/visits/visit-scheduler.tsx';
import texts from 'virtual:exp-texts/lazy/inquiry-form/show-flat-visit';

await addTexts(texts);

export function ShowFlatVisit({ row, heading }: { row: Record<string, unknown>; heading: string | undefined }) {
  const { t, api } = useElement();
  const property = useMemo(() => mapListing(row, api.url, listingDefaults(t)), [row, api.url, t]);
  return <VisitScheduler property={property} headingLevel="h2" heading={heading} />;
}
