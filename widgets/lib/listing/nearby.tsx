/**
 * What is near a listing, under its location in the detail (docs/projects.md "What is near"), drawn
 * by core/view/nearby.tsx as the listing's page draws it: asked for when the detail shows its
 * location; nothing for a listing with no position of its own (placed at its city's centre).
 */
import { useEffect, useState } from 'react';
import type { Property } from '../../../core/protocol/listing.ts';
import type { NearbyPlace } from '../../../core/protocol/nearby.ts';
import { NearbyView, type NearbyClasses } from '../../../core/view/nearby.tsx';
import { getClients } from '../data/client.ts';
import { getNearby } from '../data/nearby.ts';
import { useElement } from '../element.tsx';

export function Nearby({ property: p, headingLevel }: { property: Property; headingLevel: 'h2' | 'h3' }) {
  const { t, api } = useElement();
  const [state, setState] = useState<{ id: string; places: NearbyPlace[] }>({ id: p.id, places: [] });
  const { id, lat, lng, approximate } = p;
  useEffect(() => {
    if (approximate) return;
    const controller = new AbortController();
    getNearby(getClients(api).rest, { lat, lng }, controller.signal)
      .then((places) => setState({ id, places }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.warn('[exp] what is nearby could not be loaded:', error);
      });
    return () => controller.abort();
  }, [api, id, lat, lng, approximate]);
  if (approximate || state.id !== id) return null;
  return <NearbyView places={state.places} t={t} heading={headingLevel} classes={CLASSES} />;
}

// utilities the detail's other parts use already: the search's one sheet carries the detail's too
const CLASSES: NearbyClasses = {
  section: 'flex flex-col gap-2',
  heading: 'm-0 text-base font-semibold text-ink',
  list: 'm-0 p-0 list-none grid gap-x-4 cq-md:grid-cols-2',
  item: 'flex flex-wrap items-baseline gap-x-3 border-b border-line py-1.5',
  kind: 'basis-full text-sm text-ink-muted',
  name: 'min-w-0 flex-1 text-ink break-words',
  distance: 'shrink-0 font-semibold text-ink',
  note: 'm-0 text-sm text-ink-muted',
  unseen: 'exp-sr-only',
};
