/**
 * A new development's card (docs/projects.md "In the search"): its price from, its bedrooms' range,
 * its smallest area, its delivery (or that it is ready) and how far the works are, its developer;
 * the photos and the heart as a listing's card. Its name links to the project's page, which a
 * plain click follows (a project's units, plan and inquiry are there, not in the listing dialog).
 * Its own chunk with its texts: a search that shows no project never downloads it.
 */
import texts from 'virtual:exp-texts/lazy/lib/listing/project-card';
import { useElement } from '../element.tsx';
import { addTexts } from '../i18n.ts';
import { formatArea } from '../../../core/protocol/format.ts';
import { listingPrice } from '../../../core/protocol/listing.ts';
import { listingUrl } from '../site-links.ts';
import { Carousel } from './carousel.tsx';
import { SaveButton } from '../saved/save-button.tsx';
import { PinIcon } from '../ui/icons/pin.tsx';
import type { PropertyCardProps } from './card.tsx';

await addTexts(texts);

/** "1-3", or "2" when every type has as many */
const range = (low: number | null | undefined, high: number) =>
  low === null || low === undefined || low === high ? String(high) : `${low}-${high}`;

export function ProjectCard({ property: p, highlighted = false, onHover, headingLevel = 'h3' }: PropertyCardProps) {
  const { t, site, lang } = useElement();
  const project = p.project;
  const Heading = headingLevel;
  const delivered = project?.stage === 'delivered';
  const year = project?.delivery?.slice(0, 4);
  return (
    <article
      part={highlighted ? 'card card-highlighted project-card' : 'card project-card'}
      data-property-id={p.id}
      className={`flex flex-col overflow-hidden rounded-brand bg-surface border transition-shadow ${highlighted ? 'border-primary shadow-lg ring-2 ring-primary' : 'border-line shadow-sm hover:shadow-md'}`}
      onMouseEnter={() => onHover?.(p.id)}
      onMouseLeave={() => onHover?.(null)}
      onFocus={() => onHover?.(p.id)}
      onBlur={() => onHover?.(null)}
    >
      <div
        className="flex items-center justify-between gap-2 px-4 py-2.5 bg-primary text-primary-contrast"
        part="card-price"
      >
        <p className="m-0 text-lg font-bold tracking-tight">{listingPrice(p, t)}</p>
        <p className="m-0 text-xs font-medium uppercase tracking-wide opacity-90 truncate">{t('projectCard.kind')}</p>
      </div>
      <div className="relative">
        <Carousel
          images={p.images}
          propertyId={p.id}
          title={p.title}
          onActivate={() => location.assign(listingUrl(p, site, lang))}
        />
        <div className="absolute top-2 right-2 z-[2]">
          <SaveButton listing={p} />
        </div>
        <div className="absolute bottom-2 left-2 z-[2] pointer-events-none">
          <span
            className="inline-block rounded-full bg-surface px-2.5 py-1 text-xs font-semibold text-ink shadow"
            part="project-stage"
          >
            {delivered || !year
              ? t('projectCard.delivered')
              : [
                  t('projectCard.delivery', { year }),
                  project?.stage === 'under_construction' && project.progress !== null && project.progress !== undefined
                    ? t('projectCard.progress', { percent: project.progress })
                    : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
          </span>
        </div>
      </div>
      <div className="relative flex flex-col gap-1.5 p-4 flex-1">
        <Heading className="m-0 text-base font-semibold leading-snug text-ink">
          <a
            href={listingUrl(p, site, lang)}
            className="exp-card-link block text-left font-semibold text-base leading-snug text-ink no-underline hover:underline focus-visible:underline"
            aria-label={t('projectCard.view', { name: p.title })}
          >
            <span className="line-clamp-2">{p.title}</span>
          </a>
        </Heading>
        {project?.developer ? <p className="m-0 text-sm text-ink-muted">{project.developer}</p> : null}
        {p.sector || p.city ? (
          <p className="m-0 flex items-start gap-1 text-sm text-ink-muted">
            <PinIcon size={16} className="shrink-0 mt-0.5" />
            <span className="line-clamp-1">{[p.sector, p.city].filter(Boolean).join(', ')}</span>
          </p>
        ) : null}
        <p className="m-0 mt-auto pt-2 text-sm text-ink" part="project-facts">
          {[
            p.bedrooms ? t('projectCard.bedrooms', { range: range(project?.bedrooms_min, p.bedrooms) }) : '',
            p.area ? `${formatArea(p.area)}+` : '',
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      </div>
    </article>
  );
}
