/**
 * The property detail in a modal (docs/product.md §2): at most 90% of the viewport high, the price
 * and the share action above the detail, closed with the button, Escape or the backdrop. Loaded on
 * first use (lazy-property-dialog.tsx), with its own English texts (its utilities are its element's).
 */
import { useDeferredValue, useId } from 'react';
import texts from 'virtual:exp-texts/lazy/lib/listing/property-dialog';
import type { Property } from '../../../core/protocol/listing.ts';
import { addTexts } from '../i18n.ts';
import { Dialog, DialogClose } from '../ui/dialog.tsx';
import { PriceAndShare, PropertyDetail, TITLE_CLASSES } from './property-detail.tsx';

/**
 * What the element that opens the detail tells it, from its own attributes: the country code of
 * the agent's phone (`phone-country-code`), and the tiles of the listing's map (`tile-url`) with
 * their credit (`tile-attribution`). An element passes its props as they are.
 */
export interface DetailSettings {
  phoneCountryCode: string;
  tileUrl?: string | undefined;
  tileAttribution?: string | undefined;
}

export interface PropertyDialogProps {
  property: Property | null;
  onClose: () => void;
  settings: DetailSettings;
}

await addTexts(texts);

export function PropertyDialog({ property, onClose, settings }: PropertyDialogProps) {
  const { phoneCountryCode, tileUrl, tileAttribution } = settings;
  const titleId = useId();
  const p = property;
  // the click paints the dialog's frame (its header and the listing's title) and nothing more: the
  // detail's body follows in a background render a frame or two later, so opening a listing is one
  // short task (docs/benchmarks.md "The detail's frame")
  const body = useDeferredValue(p, null);
  return (
    <Dialog open={Boolean(p)} onClose={onClose} labelledBy={titleId} part="detail">
      {p ? (
        <>
          <div className="flex items-center justify-between gap-3 border-b border-line px-4 py-3">
            <PriceAndShare property={p} />
            <DialogClose onClose={onClose} />
          </div>
          <div className="overflow-y-auto overscroll-contain" part="detail-body">
            {body === p ? (
              <PropertyDetail
                property={p}
                phoneCountryCode={phoneCountryCode}
                headingLevel="h2"
                titleId={titleId}
                onSent={onClose}
                tileUrl={tileUrl}
                tileAttribution={tileAttribution}
              />
            ) : (
              <DetailFrame title={p.title} titleId={titleId} />
            )}
          </div>
        </>
      ) : null}
    </Dialog>
  );
}

/**
 * The detail's first frame: the photos' box and the title (the dialog's name), as the detail draws
 * them, in a dialog as high as the detail makes it (a detail is longer than the screen), so that
 * it does not grow when the detail comes.
 */
function DetailFrame({ title, titleId }: { title: string; titleId: string }) {
  return (
    <div aria-busy="true" className="min-h-[90vh]">
      <div className="bg-surface-subtle">
        <div className="mx-auto max-w-[712px] aspect-video max-h-[400px] w-full" />
      </div>
      <div className="p-4 cq-md:p-6">
        <h2 id={titleId} className={TITLE_CLASSES}>
          {title}
        </h2>
      </div>
    </div>
  );
}
