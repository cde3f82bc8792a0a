/**
 * <exp-inquiry-form>: the inquiry form on its own, about a listing (listing-id) or addressed to an
 * agent (agent-id). The listing's title, address and price are read from the data so the
 * e-mail says what the visitor asked about.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { getAgent } from '../lib/data/agents.ts';
import { getClients } from '../lib/data/client.ts';
import { getListing } from '../lib/data/listings.ts';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { mapListing } from '../../core/protocol/listing.ts';
import { InquiryForm, listingTarget, type InquiryTarget } from '../lib/inquiry/inquiry-form.tsx';
import type { inquiryFormAttributes } from './inquiry-form.attributes.ts';
import { lazyChunk } from '../lib/lazy-chunk.ts';

/** "Schedule a visit" for the listing (show-flat-visit.tsx): its own chunk, loaded when `visit` asks for it */
const ShowFlatVisit = lazy(
  lazyChunk(() => import('./show-flat-visit.tsx').then((m) => ({ default: m.ShowFlatVisit }))),
);

export function InquiryFormElement({
  listingId,
  agentId,
  heading,
  visit,
  visitHeading,
}: ElementProps<typeof inquiryFormAttributes>) {
  const { t, api } = useElement();
  const [target, setTarget] = useState<InquiryTarget>({
    propertyTitle: '',
    propertyAddress: '',
    propertyPrice: '',
    recipientEmail: '',
  });
  // the listing as read, for the visit's scheduler
  const [row, setRow] = useState<Record<string, unknown> | null>(null);
  useEffect(() => {
    let live = true;
    const rest = getClients(api).rest;
    const base: InquiryTarget = {
      propertyTitle: '',
      propertyAddress: '',
      propertyPrice: '',
      recipientEmail: '',
      ...(listingId ? { propertyId: listingId } : {}),
      ...(agentId ? { agentId } : {}),
    };
    setTarget(base);
    void (async () => {
      try {
        if (listingId) {
          const row = await getListing(rest, listingId);
          if (live && row) {
            setRow(row);
            // as the search's dialog asks about it (one home: listingTarget)
            setTarget({ ...listingTarget(mapListing(row, api.url)), ...(agentId ? { agentId } : {}) });
          }
        } else if (agentId) {
          const agent = await getAgent(rest, agentId);
          if (live && agent) setTarget({ ...base, recipientEmail: agent.email ?? '' });
        }
      } catch (error) {
        // the form still works: the function finds the listing and its agent on its own
        console.warn('[exp-inquiry-form] could not read the listing or agent:', error);
      }
    })();
    return () => {
      live = false;
    };
  }, [listingId, agentId, api]);
  const title =
    heading ??
    (target.propertyTitle ? t('inquiry.headingAbout', { title: target.propertyTitle }) : t('inquiry.heading'));
  if (!visit) return <InquiryForm target={target} heading={title} />;
  return (
    <div className="flex flex-col gap-6">
      {row ? (
        <Suspense fallback={null}>
          <ShowFlatVisit row={row} heading={visitHeading} />
        </Suspense>
      ) : null}
      <InquiryForm target={target} heading={title} />
    </div>
  );
}
