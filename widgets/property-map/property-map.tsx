/**
 * <exp-property-map>: the clustered map of every listing matching its attributes, on its own.
 * A pin opens the property's detail, with its agent and the inquiry form.
 */
import { useSignal } from '@preact/signals-react';
import { useEffect, useMemo, useState } from 'react';
import { getClients } from '../lib/data/client.ts';
import { getListing, getListingsCount, type SearchFilters } from '../lib/data/listings.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { emit } from '../lib/events.ts';
import { filtersFrom } from '../lib/listing/filter-attributes.ts';
import { listingDefaults, mapListing } from '../../core/protocol/listing.ts';
import { preloadPropertyDialog, PropertyDialog } from '../lib/listing/lazy-property-dialog.tsx';
import { MapPanel } from '../lib/map/map-panel.tsx';
import type { propertyMapAttributes } from './property-map.attributes.ts';

export function PropertyMap(props: ElementProps<typeof propertyMapAttributes>) {
  const { api, host, t } = useElement();
  // one object per distinct set of attribute values, so the effects below run only when they change
  const filtersKey = JSON.stringify({ ...filtersFrom(props), ...(props.agentId ? { agentId: props.agentId } : {}) });
  const filters = useMemo<SearchFilters>(() => JSON.parse(filtersKey) as SearchFilters, [filtersKey]);
  const [total, setTotal] = useState<number | null>(null);
  // the hovered pin: the map reads it itself (a hover draws no component)
  const hovered = useSignal<string | null>(null);
  const [open, setOpen] = useState<Record<string, unknown> | null>(null);
  const rest = getClients(api).rest;

  useEffect(() => {
    let live = true;
    setTotal(null);
    getListingsCount(rest, filters)
      .then((n) => live && setTotal(n))
      .catch((error: unknown) => {
        console.error('[exp-property-map] count failed:', error);
        if (live) setTotal(0);
      });
    return () => {
      live = false;
    };
  }, [filters, rest]);

  const openId = async (id: string) => {
    // a host page may handle the listing itself (follow the link, its own page)
    if (!emit(host, 'exp-property-open', { id, title: '' }, { cancelable: true })) return;
    try {
      setOpen(await getListing(rest, id));
    } catch (error) {
      console.error('[exp-property-map] could not load the property:', error);
    }
  };
  const property = useMemo(() => (open ? mapListing(open, api.url, listingDefaults(t)) : null), [open, api.url, t]);

  return (
    <>
      <MapPanel
        filters={filters}
        total={total}
        properties={[]}
        hoveredId={hovered}
        onOpen={(id) => void openId(id)}
        onHover={(id) => {
          if (id) preloadPropertyDialog();
          hovered.value = id;
        }}
        tileUrl={props.tileUrl}
        tileAttribution={props.tileAttribution}
      />
      <PropertyDialog property={property} onClose={() => setOpen(null)} settings={props} />
    </>
  );
}
