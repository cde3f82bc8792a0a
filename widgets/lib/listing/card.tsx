/**
 * A property card (docs/product.md §2): price header, photos at 16:9 with the heart that saves it,
 * title, address, beds, baths, m².
 * The title is a real link to the listing's own page (a new tab, a copied link and crawlers work);
 * a plain click opens the detail in place instead. Its hit area stretches over the text, and a
 * click on the photo opens the detail too.
 */
import { lazy, memo, Suspense } from 'react';
import { useElement, useStyles } from '../element.tsx';
import { formatArea, formatPrice } from '../../../core/protocol/format.ts';
import { AreaIcon } from '../ui/icons/area.tsx';
import { BathIcon } from '../ui/icons/bath.tsx';
import { BedIcon } from '../ui/icons/bed.tsx';
import { PinIcon } from '../ui/icons/pin.tsx';
import { plainClick } from '../events.ts';
import { listingUrl } from '../site-links.ts';
import { Carousel } from './carousel.tsx';
import { preloadPropertyDialog } from './lazy-property-dialog.tsx';
import { PriceCutBadge } from '../ui/price-cut.tsx';
import { OpenHouseBadge, PhotoBadge } from '../ui/open-house.tsx';
import { SaveButton } from '../saved/save-button.tsx';
import { listingPrice, roomTexts, typeLabel, type Property } from '../../../core/protocol/listing.ts';
import { excerpt, markWords } from '../../../core/protocol/words.ts';
import { lazyChunk } from '../lazy-chunk.ts';

/** a new development's card (project-card.tsx): its own chunk, loaded when a project is shown */
const ProjectCard = lazy(lazyChunk(() => import('./project-card.tsx').then((m) => ({ default: m.ProjectCard }))));

export interface PropertyCardProps {
  property: Property;
  onOpen: (property: Property, opener: HTMLElement | null) => void;
  highlighted?: boolean;
  onHover?: (id: string | null) => void;
  headingLevel?: 'h2' | 'h3';
  /** the stems of the search's words (core/protocol/words.ts wordStems): marked in the title, and where the description says them */
  words?: readonly string[];
}

/** A text with the words asked for in <mark>. */
function Marked({ text, words }: { text: string; words: readonly string[] | undefined }) {
  if (!words?.length) return <>{text}</>;
  return (
    <>
      {markWords(text, words).map((part, i) =>
        part.match ? (
          <mark key={i} part="match" className="exp-match">
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

export const PropertyCard = memo(function PropertyCard(props: PropertyCardProps) {
  useStyles(cardCss);
  const { t, site, lang } = useElement();
  const { property: p, onOpen, highlighted = false, onHover, headingLevel = 'h3', words } = props;
  if (p.project)
    return (
      <Suspense fallback={<CardSkeleton />}>
        <ProjectCard {...props} />
      </Suspense>
    );
  const href = listingUrl(p, site, lang);
  const Heading = headingLevel;
  const address = [p.address, p.city].filter(Boolean).join(', ');
  const said = words?.length ? excerpt(p.description ?? '', words) : undefined;
  return (
    <article
      part={highlighted ? 'card card-highlighted' : 'card'}
      data-property-id={p.id}
      className={`flex flex-col overflow-hidden rounded-brand bg-surface border transition-shadow ${highlighted ? 'border-primary shadow-lg ring-2 ring-primary' : 'border-line shadow-sm hover:shadow-md'}`}
      onMouseEnter={() => {
        preloadPropertyDialog();
        onHover?.(p.id);
      }}
      onMouseLeave={() => onHover?.(null)}
      onFocus={() => {
        preloadPropertyDialog();
        onHover?.(p.id);
      }}
      onBlur={() => onHover?.(null)}
      onTouchStart={preloadPropertyDialog}
    >
      <div
        // (as high with an alícuota line as without: the cards of a row keep their photos level)
        className="flex min-h-[64px] items-center justify-between gap-2 px-4 py-2.5 bg-primary text-primary-contrast"
        part="card-price"
      >
        <p className="m-0 text-lg font-bold tracking-tight">
          {listingPrice(p, t)}
          {/* the alícuota a month, when the listing says it (docs/product.md §3) */}
          {p.facts.hoaFee ? (
            <span className="block text-xs font-medium tracking-normal opacity-90">
              {t('listing.hoaFee', { fee: formatPrice(p.facts.hoaFee) })}
            </span>
          ) : null}
        </p>
        <p className="m-0 text-xs font-medium uppercase tracking-wide opacity-90 truncate">
          {typeLabel(p.propertyType, t)}
        </p>
      </div>
      <div className="relative">
        <Carousel images={p.images} propertyId={p.id} title={p.title} onActivate={() => onOpen(p, null)} />
        <div className="absolute top-2 right-2 z-[2]">
          <SaveButton listing={p} />
        </div>
        <div className="absolute bottom-2 left-2 right-2 z-[2] flex flex-wrap gap-1.5 pointer-events-none">
          <PriceCutBadge property={p} />
          <OpenHouseBadge property={p} />
          {/* a unit of a new development: its project (docs/projects.md "Its units") */}
          {p.unitOf ? (
            <PhotoBadge part="unit-of-badge">{t('listing.unitOf', { name: p.unitOf.name })}</PhotoBadge>
          ) : null}
        </div>
      </div>
      <div className="relative flex flex-col gap-1.5 p-4 flex-1">
        <Heading className="m-0 text-base font-semibold leading-snug text-ink">
          <a
            href={href}
            className="exp-card-link block text-left p-0 m-0 font-semibold text-base leading-snug text-ink no-underline cursor-pointer hover:underline focus-visible:underline"
            onClick={(e) => {
              if (!plainClick(e)) return;
              e.preventDefault();
              onOpen(p, e.currentTarget);
            }}
            aria-label={t('listing.viewDetails', { title: p.title })}
          >
            <span className="line-clamp-2">
              <Marked text={p.title} words={words} />
            </span>
          </a>
        </Heading>
        {address ? (
          <p className="m-0 flex items-start gap-1 text-sm text-ink-muted">
            <PinIcon size={16} className="shrink-0 mt-0.5" />
            <span className="line-clamp-1">{address}</span>
          </p>
        ) : null}
        {said ? (
          <p className="m-0 text-sm text-ink-muted line-clamp-2" part="card-excerpt">
            <Marked text={said} words={words} />
          </p>
        ) : null}
        <ul
          className="list-none m-0 mt-auto pt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-ink"
          aria-label={t('listing.facts')}
        >
          {/* a lot or a shop says no "0 beds" (core/protocol/listing.ts roomTexts) */}
          {roomTexts(p, t).map(({ room, text }) => (
            <li key={room} className="flex items-center gap-1.5" part={`card-${room}`}>
              {room === 'beds' ? (
                <BedIcon size={18} className="text-ink-muted" />
              ) : (
                <BathIcon size={18} className="text-ink-muted" />
              )}
              {text}
            </li>
          ))}
          <li className="flex items-center gap-1.5">
            <AreaIcon size={18} className="text-ink-muted" />
            {formatArea(p.area)}
          </li>
        </ul>
      </div>
    </article>
  );
});

/** The stretched hit area of the title button over the card's text. */
const cardCss = `
.exp-card-link::after { content: ''; position: absolute; inset: 0; }
.exp-match { background: var(--exp-match-bg, #fdecb2); color: inherit; border-radius: 2px; padding: 0 1px; }
`;

export function CardSkeleton() {
  useStyles(skeletonCss);
  return (
    <div aria-hidden="true" className="overflow-hidden rounded-brand bg-surface border border-line" part="skeleton">
      <div className="h-11 bg-surface-subtle exp-pulse" />
      <div className="aspect-video bg-surface-subtle exp-pulse" />
      <div className="p-4 flex flex-col gap-2">
        <div className="h-4 w-3/4 rounded bg-surface-subtle exp-pulse" />
        <div className="h-3 w-1/2 rounded bg-surface-subtle exp-pulse" />
        <div className="h-3 w-2/3 rounded bg-surface-subtle exp-pulse" />
      </div>
    </div>
  );
}

/**
 * The cards to come while a list of listings loads, in the list's own grid: one status named
 * "Loading..." (a name on an element with no role is an accessibility error), its cards hidden.
 */
export function CardSkeletons({ className, count }: { className: string; count: number }) {
  const { t } = useElement();
  return (
    <div className={className} role="status" aria-label={t('common.loading')}>
      {Array.from({ length: count }, (_, i) => (
        <CardSkeleton key={i} />
      ))}
    </div>
  );
}

const skeletonCss = `
.exp-pulse { animation: exp-pulse 1.4s ease-in-out infinite; }
@keyframes exp-pulse { 0%, 100% { opacity: 1; } 50% { opacity: 0.45; } }
`;
