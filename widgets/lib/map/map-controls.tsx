/**
 * The map's own controls, in the element's language and theme and reachable by keyboard: zoom,
 * the tiles' credit, 'Search this area' and its clearing; and the simplified map, a list, for when
 * the map cannot load (docs/product.md §9).
 */
import { useMemo } from 'react';
import { listingPrice, type Property } from '../../../core/protocol/listing.ts';
import { useElement, useStyles } from '../element.tsx';
import { plainClick } from '../events.ts';
import { listingUrl } from '../site-links.ts';
import { SearchIcon } from '../ui/icons/search.tsx';
import { DrawIcon } from '../ui/icons/draw.tsx';

export const MAP_HEIGHTS = 'h-[400px] cq-md:h-[600px] cq-lg:h-[800px]';

export function ZoomControls({ zoomBy }: { zoomBy: (delta: number) => void }) {
  const { t } = useElement();
  return (
    <div
      className="absolute top-3 left-3 z-[5] flex flex-col overflow-hidden rounded-md bg-surface shadow"
      part="map-zoom"
    >
      <button
        type="button"
        onClick={() => zoomBy(1)}
        title={t('map.zoomIn')}
        aria-label={t('map.zoomIn')}
        className="w-9 h-9 flex items-center justify-center border-0 bg-surface text-[22px] leading-none text-ink cursor-pointer hover:bg-surface-subtle"
      >
        +
      </button>
      <button
        type="button"
        onClick={() => zoomBy(-1)}
        title={t('map.zoomOut')}
        aria-label={t('map.zoomOut')}
        className="w-9 h-9 flex items-center justify-center border-0 border-t border-line bg-surface text-[22px] leading-none text-ink cursor-pointer hover:bg-surface-subtle"
      >
        −
      </button>
    </div>
  );
}

/** The credit's links in the theme's colour. */
const creditCss = `.exp-map-credit a { color: var(--exp-color-primary, #123c69); }`;

/**
 * A provider's credit (core/protocol/map-tiles.ts: what the server takes) as text and its http(s)
 * links, read by the browser's parser, which runs and loads nothing of it; any other markup is
 * its text alone. Null when it has no text to show: OpenStreetMap's credit is shown instead.
 */
function creditParts(html: string): Array<string | { text: string; href: string }> | null {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  if (!body.textContent?.trim()) return null;
  return [...body.childNodes].map((node) => {
    const href = node.nodeName === 'A' ? ((node as Element).getAttribute('href') ?? '') : '';
    return /^https?:\/\//i.test(href) ? { text: node.textContent ?? '', href } : (node.textContent ?? '');
  });
}

export function MapCredit({ attribution }: { attribution?: string | undefined }) {
  useStyles(creditCss);
  const { t } = useElement();
  const parts = useMemo(() => (attribution ? creditParts(attribution) : null), [attribution]);
  const className =
    'exp-map-credit absolute bottom-0 right-0 z-[5] rounded-tl-md bg-white/80 px-1.5 py-0.5 text-[11px] text-ink';
  if (!parts)
    return <div className={className} part="map-credit" dangerouslySetInnerHTML={{ __html: t('map.tilesCredit') }} />;
  return (
    <div className={className} part="map-credit">
      {parts.map((p, i) =>
        typeof p === 'string' ? (
          p
        ) : (
          <a key={i} href={p.href} target="_blank" rel="noopener">
            {p.text}
          </a>
        ),
      )}
    </div>
  );
}

/** 'Search this area' after the visitor's own move, and clearing the area once it applies. */
export function SearchAreaButtons({
  moved,
  areaActive,
  onSearch,
  onClear,
}: {
  moved: boolean;
  areaActive: boolean;
  onSearch: () => void;
  onClear: () => void;
}) {
  const { t } = useElement();
  return (
    <div className="absolute top-3 left-1/2 -translate-x-1/2 flex gap-2 z-[5]">
      {moved ? (
        <button
          type="button"
          onClick={onSearch}
          className="inline-flex items-center gap-1.5 rounded-full bg-primary px-4 py-2 text-sm font-semibold text-primary-contrast shadow-lg cursor-pointer hover:bg-primary-hover"
          part="search-area"
        >
          <SearchIcon size={16} />
          {t('map.searchArea')}
        </button>
      ) : null}
      {areaActive ? (
        <button
          type="button"
          onClick={onClear}
          className="rounded-full bg-surface px-4 py-2 text-sm font-medium text-ink shadow-lg cursor-pointer hover:bg-surface-subtle"
          part="clear-area"
        >
          {t('map.clearArea')}
        </button>
      ) : null}
    </div>
  );
}

/**
 * Drawing an area: the button, and while drawing Cancel (Esc too) and, once the tool is there to take
 * the first corner, how it is done; once drawn, removing it. A finger draws a lasso, a mouse clicks
 * corners (ol-draw.ts).
 */
export function DrawButtons({
  drawing,
  armed,
  drawn,
  onDraw,
  onCancel,
  onClear,
}: {
  drawing: boolean;
  armed: boolean;
  drawn: boolean;
  onDraw: () => void;
  onCancel: () => void;
  onClear: () => void;
}) {
  const { t } = useElement();
  const coarse = typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;
  const pill =
    'inline-flex items-center gap-1.5 rounded-full px-3.5 py-2 text-sm font-semibold shadow-lg cursor-pointer border-0';
  return (
    <>
      {armed ? (
        <p
          className="absolute top-3 left-14 right-3 m-0 z-[5] rounded-md bg-surface/95 px-3 py-2 text-sm text-ink shadow"
          role="status"
          part="draw-hint"
        >
          {t(coarse ? 'map.drawHintTouch' : 'map.drawHint')}
        </p>
      ) : null}
      <div className="absolute bottom-7 left-3 z-[5] flex flex-wrap gap-2">
        {drawing ? (
          <button
            type="button"
            onClick={onCancel}
            className={`${pill} bg-surface text-ink hover:bg-surface-subtle`}
            part="draw-cancel"
          >
            {t('map.drawCancel')}
          </button>
        ) : (
          <button
            type="button"
            onClick={onDraw}
            className={`${pill} bg-surface text-ink hover:bg-surface-subtle`}
            part="draw-area"
          >
            <DrawIcon size={16} />
            {t('map.draw')}
          </button>
        )}
        {drawn && !drawing ? (
          <button
            type="button"
            onClick={onClear}
            className={`${pill} bg-primary text-primary-contrast hover:bg-primary-hover`}
            part="clear-drawn-area"
          >
            {t('map.clearDrawn')}
          </button>
        ) : null}
      </div>
    </>
  );
}

/** When the map cannot load: the first 6 properties as a list (docs/product.md §9). */
export function SimplifiedMap({ properties, onOpen }: { properties: Property[]; onOpen: (id: string) => void }) {
  const { t, site, lang } = useElement();
  const shown = useMemo(() => properties.slice(0, 6), [properties]);
  return (
    <div
      className={`rounded-brand border border-line bg-surface p-4 overflow-y-auto ${MAP_HEIGHTS}`}
      part="map-fallback"
      data-fallback="true"
    >
      <p className="m-0 mb-3 font-semibold text-ink">{t('map.fallbackHeading')}</p>
      <ul className="list-none m-0 p-0 flex flex-col gap-2">
        {shown.map((p) => (
          <li key={p.id}>
            {/* a new development's page is its own (docs/projects.md); a listing opens in place */}
            <a
              href={listingUrl(p, site, lang)}
              onClick={(e) => {
                if (p.project || !plainClick(e)) return;
                e.preventDefault();
                onOpen(p.id);
              }}
              className="block w-full text-left rounded-md border border-line bg-surface px-3 py-2 no-underline cursor-pointer hover:bg-surface-subtle"
            >
              <span className="block font-semibold text-ink">{listingPrice(p, t)}</span>
              <span className="block text-sm text-ink line-clamp-1">{p.title}</span>
              <span className="block text-xs text-ink-muted">
                {[p.city, p.approximate ? t('map.approximate') : ''].filter(Boolean).join(' · ')}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
