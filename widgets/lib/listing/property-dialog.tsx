/**
 * The property detail (docs/product.md §2): photos (at most 400px high), price badge, title, address,
 * bedrooms, bathrooms, area, type, description, the agent and the inquiry form, in a modal that
 * is at most 90% of the viewport high. Listing text is rendered as text, never as markup.
 */
import { useId } from 'react';
import { useElement } from '../element.tsx';
import { formatArea, formatCount, formatPrice } from '../format.ts';
import { InquiryForm } from '../inquiry/inquiry-form.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { CloseIcon, PinIcon } from '../ui/icons.tsx';
import { AgentContact } from './agent-contact.tsx';
import { Carousel } from './carousel.tsx';
import { typeLabel, type Property } from './mapping.ts';

export interface PropertyDialogProps {
  property: Property | null;
  onClose: () => void;
  phoneCountryCode: string;
}

export function PropertyDialog({ property, onClose, phoneCountryCode }: PropertyDialogProps) {
  const { t } = useElement();
  const titleId = useId();
  const p = property;
  return (
    <Dialog open={Boolean(p)} onClose={onClose} labelledBy={titleId} part="detail">
      {p ? (
        <>
          <div className="flex items-center justify-between gap-3 border-b border-line px-4 py-3">
            <span className="rounded-full bg-accent px-3 py-1 text-sm font-bold text-accent-contrast" part="price-badge">
              {formatPrice(p.price)}
            </span>
            <button type="button" onClick={onClose} aria-label={t('common.close')} className="w-10 h-10 rounded-full flex items-center justify-center bg-transparent text-ink cursor-pointer hover:bg-surface-subtle">
              <CloseIcon size={22} />
            </button>
          </div>
          <div className="overflow-y-auto overscroll-contain" part="detail-body">
            <div className="bg-surface-subtle">
              <div className="mx-auto max-w-[712px]">
                <Carousel images={p.images} propertyId={p.id} title={p.title} variant="detail" eager />
              </div>
            </div>
            <div className="grid grid-cols-[minmax(0,1fr)] gap-6 p-4 cq-md:p-6 cq-lg:grid-cols-[minmax(0,1fr)_340px]">
              <div className="flex flex-col gap-4 min-w-0">
                <div>
                  <h2 id={titleId} className="m-0 text-xl cq-md:text-2xl font-bold leading-tight text-ink">
                    {p.title}
                  </h2>
                  {p.address || p.city ? (
                    <p className="m-0 mt-1.5 flex items-start gap-1 text-ink-muted">
                      <PinIcon size={18} className="shrink-0 mt-0.5" />
                      <span>{[p.address, p.city, p.state].filter(Boolean).join(', ')}</span>
                    </p>
                  ) : null}
                  {p.approximate ? <p className="m-0 mt-1 text-sm text-ink-muted">{t('map.approximate')}</p> : null}
                </div>
                <dl className="m-0 grid grid-cols-[repeat(2,minmax(0,1fr))] cq-sm:grid-cols-[repeat(4,minmax(0,1fr))] gap-2" part="facts">
                  {[
                    [t('listing.bedrooms'), formatCount(p.bedrooms)],
                    [t('listing.bathrooms'), formatCount(p.bathrooms)],
                    [t('listing.area'), formatArea(p.area)],
                    [t('listing.type'), typeLabel(p.propertyType, t)],
                  ].map(([label, value]) => (
                    <div key={label} className="rounded-md border border-line px-3 py-2">
                      <dt className="text-xs uppercase tracking-wide text-ink-muted break-words">{label}</dt>
                      <dd className="m-0 mt-0.5 font-semibold text-ink break-words">{value}</dd>
                    </div>
                  ))}
                </dl>
                {p.description ? (
                  <section>
                    <h3 className="m-0 mb-1.5 text-base font-semibold text-ink">{t('listing.description')}</h3>
                    <p className="m-0 whitespace-pre-line leading-relaxed text-ink">{p.description}</p>
                  </section>
                ) : null}
              </div>
              <div className="flex flex-col gap-4 min-w-0">
                {p.agent ? <AgentContact agent={p.agent} countryCode={phoneCountryCode} /> : null}
                <section className="rounded-brand border border-line p-4">
                  <InquiryForm
                    heading={t('inquiry.heading')}
                    target={{
                      propertyId: p.id,
                      propertyTitle: p.title,
                      propertyAddress: [p.address, p.city].filter(Boolean).join(', '),
                      propertyPrice: formatPrice(p.price),
                      recipientEmail: p.agent?.email ?? '',
                      ...(p.agent?.id ? { agentId: p.agent.id } : {}),
                    }}
                    onSent={onClose}
                  />
                </section>
              </div>
            </div>
          </div>
        </>
      ) : null}
    </Dialog>
  );
}
