/**
 * A listing's detail (docs/product.md §2): photos (at most 400 px high), title, address, bedrooms,
 * bathrooms, area, type, description, the agent, "Schedule a visit" and the inquiry form. The same content in the
 * detail dialog and on the listing's own page (<exp-property-detail>). Listing text is rendered as
 * text, never as markup.
 */
import { countListingEvent } from '../data/listing-events.ts';
import { useDeferredValue, useEffect, useState } from 'react';
import { listingPrice, type Property } from '../../../core/protocol/listing.ts';
import { useElement } from '../element.tsx';
import { InquiryForm, listingTarget } from '../inquiry/inquiry-form.tsx';
import { VisitScheduler } from '../visits/visit-scheduler.tsx';
import { listingUrl, siteUrl } from '../site-links.ts';
import { projectPath } from '../../../core/routes.ts';
import { UnitOfProject } from '../../../core/view/unit-of-project.tsx';
import { PinIcon } from '../ui/icons/pin.tsx';
import { ListingFacts, type FactsClasses } from '../../../core/view/listing-facts.tsx';
import { AgentContact } from './agent-contact.tsx';
import { ListingMarket } from './listing-market.tsx';
import { PaymentCalculator, RentCost } from './payment-calculator.tsx';
import { LocationMap } from './location-map.tsx';
import { Nearby } from './nearby.tsx';
import { PriceHistory } from './price-history.tsx';
import { OpenHouses } from './open-houses.tsx';
import { SimilarListings } from './similar-listings.tsx';
import { Carousel } from './carousel.tsx';
import { Gallery } from './gallery.tsx';
import { SaveButton } from '../saved/save-button.tsx';
import { keptEntry, rememberViewed } from '../saved/store.ts';
import { ShareButton, type ShareTarget } from './share.tsx';

/** What sharing a listing sends: its page, its title, its price and place. */
function useShareTarget(p: Property): ShareTarget {
  const { site, lang, t } = useElement();
  const url = new URL(listingUrl(p, site, lang), typeof location === 'undefined' ? site : location.href).href;
  return { url, title: p.title, text: [listingPrice(p, t), p.city].filter(Boolean).join(' · ') };
}

/** The price, the share action and the heart, above the detail. */
export function PriceAndShare({ property: p }: { property: Property }) {
  const { t } = useElement();
  const target = useShareTarget(p);
  return (
    <div className="flex items-center gap-2">
      <span className="rounded-full bg-accent px-3 py-1 text-sm font-bold text-accent-contrast" part="price-badge">
        {listingPrice(p, t)}
      </span>
      <ShareButton target={target} />
      <SaveButton listing={p} tone="plain" />
    </div>
  );
}

export interface PropertyDetailProps {
  property: Property;
  phoneCountryCode: string;
  /** h2 in the dialog, h1 on the listing's own page */
  headingLevel: 'h1' | 'h2';
  titleId: string;
  /** after an inquiry was sent (the dialog closes) */
  onSent?: () => void;
  /** the monthly payment's estimate (an element's `show-payment`; on unless a host turns it off) */
  showPayment?: boolean;
  /** the listings like this one, under the detail (an element's `show-similar`; the listing page renders its own) */
  showSimilar?: boolean;
  /** the listing's place on a small map with directions (an element's `show-location`) */
  showLocation?: boolean;
  /** the tiles of that map (the element's `tile-url`) and their credit (`tile-attribution`) */
  tileUrl?: string | undefined;
  tileAttribution?: string | undefined;
}

export function PropertyDetail({
  property: p,
  phoneCountryCode,
  headingLevel,
  titleId,
  onSent,
  showPayment = true,
  showSimilar = true,
  showLocation = true,
  tileUrl,
  tileAttribution,
}: PropertyDetailProps) {
  const { t, api, site, lang } = useElement();
  const Heading = headingLevel;
  // opened: first in the visitor's recently viewed (kept in this browser only)
  useEffect(() => rememberViewed(api.url, keptEntry(p)), [api.url, p]);
  // one view of this listing for its agent's figures (counts only)
  useEffect(() => countListingEvent(api, p.id, 'view'), [api, p.id]);
  // the sections' headings sit one level below the title
  const Sub = headingLevel === 'h1' ? 'h2' : 'h3';
  // the listing (its photos, title and facts) is its first render (in the dialog, the frame after the
  // click's, property-dialog.tsx); the rest follows in a background (time-sliced) render, the side
  // column in a box of about its size
  const complete = useDeferredValue(true, false);
  // the photo the full-screen gallery opened at; null while it is closed
  const [gallery, setGallery] = useState<number | null>(null);
  return (
    <>
      <div className="bg-surface-subtle">
        <div className="mx-auto max-w-[712px]">
          <Carousel images={p.images} propertyId={p.id} title={p.title} variant="detail" eager onExpand={setGallery} />
        </div>
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 p-4 cq-md:p-6 cq-lg:grid-cols-[minmax(0,1fr)_340px]">
        <div className="flex flex-col gap-4 min-w-0">
          <div>
            <Heading id={titleId} className={TITLE_CLASSES}>
              {p.title}
            </Heading>
            {p.address || p.city ? (
              <p className="m-0 mt-1.5 flex items-start gap-1 text-ink-muted">
                <PinIcon size={18} className="shrink-0 mt-0.5" />
                <span>{[p.address, p.city, p.state].filter(Boolean).join(', ')}</span>
              </p>
            ) : null}
            {p.approximate ? <p className="m-0 mt-1 text-sm text-ink-muted">{t('map.approximate')}</p> : null}
          </div>
          <ListingFacts property={p} t={t} part="facts" classes={FACT_CLASSES} />
          <UnitOfProject
            unitOf={p.unitOf}
            t={t}
            lang={lang}
            href={siteUrl(projectPath(p.unitOf?.slug ?? null), site, lang)}
            className="m-0 text-sm text-ink"
            linkClassName="text-primary underline"
          />
          {/* what comes after the facts follows in the background render, a frame or two later: it only adds
              below what is drawn (docs/benchmarks.md, "A hover" and "The detail's frame") */}
          {complete ? (
            <>
              <ListingMarket property={p} />
              {showPayment ? (
                p.operation === 'rent' ? (
                  <RentCost rent={p.price} hoaFee={p.facts.hoaFee} headingLevel={Sub} />
                ) : (
                  <PaymentCalculator price={p.price} hoaFee={p.facts.hoaFee} headingLevel={Sub} />
                )
              ) : null}
              {p.description ? (
                <section>
                  <Sub className="m-0 mb-1.5 text-base font-semibold text-ink">{t('listing.description')}</Sub>
                  <p className="m-0 whitespace-pre-line leading-relaxed text-ink">{p.description}</p>
                </section>
              ) : null}
              <OpenHouses property={p} headingLevel={Sub} />
              <PriceHistory property={p} headingLevel={Sub} />
              {showLocation ? (
                <>
                  <LocationMap property={p} headingLevel={Sub} tileUrl={tileUrl} tileAttribution={tileAttribution} />
                  <Nearby property={p} headingLevel={Sub} />
                </>
              ) : null}
            </>
          ) : null}
        </div>
        {complete ? (
          <div className="flex flex-col gap-4 min-w-0">
            {p.agent ? <AgentContact agent={p.agent} countryCode={phoneCountryCode} headingLevel={Sub} /> : null}
            <VisitScheduler property={p} headingLevel={Sub} />
            <section className="rounded-brand border border-line p-4">
              <InquiryForm
                heading={t('inquiry.heading')}
                headingLevel={Sub}
                target={listingTarget(p)}
                {...(onSent ? { onSent } : {})}
              />
            </section>
          </div>
        ) : (
          <div className="min-h-[560px] min-w-0" aria-hidden="true" />
        )}
      </div>
      {showSimilar && complete ? <SimilarListings property={p} headingLevel={Sub} /> : null}
      <Gallery images={p.images} propertyId={p.id} title={p.title} start={gallery} onClose={() => setGallery(null)} />
    </>
  );
}

/** the listing's title, in the detail and in the dialog's frame before it (property-dialog.tsx) */
export const TITLE_CLASSES = 'm-0 text-xl cq-md:text-2xl font-bold leading-tight text-ink';

const FACT_CLASSES: FactsClasses = {
  list: 'm-0 grid grid-cols-[repeat(2,minmax(0,1fr))] cq-sm:grid-cols-[repeat(4,minmax(0,1fr))] gap-2',
  item: 'rounded-md border border-line px-2.5 cq-sm:px-3 py-2',
  // (a long word, "PARQUEADEROS", is hyphenated where the browser knows the language, not cut)
  term: 'text-xs uppercase tracking-normal cq-sm:tracking-wide text-ink-muted break-words [hyphens:auto]',
  value: 'm-0 mt-0.5 font-semibold text-ink break-words',
};
