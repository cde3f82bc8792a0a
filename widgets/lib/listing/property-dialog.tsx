/**
 * The property detail in a modal (docs/product.md §2): at most 90% of the viewport high, the price
 * and the share action above the detail, closed with the button, Escape or the backdrop. Loaded on
 * first use (lazy-property-dialog.tsx), with its own English texts (its utilities are its element's).
 */
import { useId } from 'react';
import texts from 'virtual:exp-texts/lazy/lib/listing/property-dialog';
import type { Property } from '../../../core/protocol/listing.ts';
import { addTexts } from '../i18n.ts';
import { Dialog, DialogClose } from '../ui/dialog.tsx';
import { PriceAndShare, PropertyDetail } from './property-detail.tsx';

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
  return (
    <Dialog open={Boolean(p)} onClose={onClose} labelledBy={titleId} part="detail">
      {p ? (
        <>
          <div className="flex items-center justify-between gap-3 border-b border-line px-4 py-3">
            <PriceAndShare property={p} />
            <DialogClose onClose={onClose} />
          </div>
          <div className="overflow-y-auto overscroll-contain" part="detail-body">
            <PropertyDetail
              property={p}
              phoneCountryCode={phoneCountryCode}
              headingLevel="h2"
              titleId={titleId}
              onSent={onClose}
              tileUrl={tileUrl}
              tileAttribution={tileAttribution}
            />
          </div>
        </>
      ) : null}
    </Dialog>
  );
}
