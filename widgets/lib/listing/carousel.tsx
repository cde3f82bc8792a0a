/**
 * Photos of a property at 16:9: arrows, swipe and the arrow keys; a photo that fails to load is
 * replaced by the property's placeholder. Only the current photo is in the DOM, the next one is
 * warmed up, so a page of cards costs one image each.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useElement } from '../element.tsx';
import { ChevronLeft } from '../ui/icons/chevron-left.tsx';
import { ChevronRight } from '../ui/icons/chevron-right.tsx';
import { ExpandIcon } from '../ui/icons/expand.tsx';
import { placeholderIndex } from '../../../core/protocol/listing.ts';
import { Photo, PHOTO_SIZES, warmPhoto } from '../ui/photo.tsx';
import { PropertyPlaceholder } from '../ui/placeholder.tsx';

export interface CarouselProps {
  images: string[];
  propertyId: string;
  title: string;
  /** 'card' keeps 16:9; 'detail' is at most 400px high */
  variant?: 'card' | 'detail';
  eager?: boolean;
  /** a click or tap on the photo itself (not a swipe, not the arrows), with the photo shown */
  onActivate?: (index: number) => void;
  /** the photos full screen, from the photo shown: a button for it (and Enter on the carousel) */
  onExpand?: (index: number) => void;
}

export function Carousel({
  images,
  propertyId,
  title,
  variant = 'card',
  eager = false,
  onActivate,
  onExpand,
}: CarouselProps) {
  const { t } = useElement();
  const [index, setIndex] = useState(0);
  const [failed, setFailed] = useState<Set<string>>(() => new Set());
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  const swiped = useRef(false);
  const count = images.length;
  const current = images[index];

  // a card's carousel warms its next photo once the visitor comes to it (a pointer over it, a finger
  // on it, the keyboard's focus), so the arrow feels instant; a search page's 24 cards no longer
  // download 24 photos nobody asked to see. The detail's carousel is looked at already.
  const [engaged, setEngaged] = useState(variant === 'detail');
  const engage = () => setEngaged(true);
  useEffect(() => setIndex(0), [propertyId]);
  useEffect(() => {
    const next = images[(index + 1) % Math.max(1, count)];
    if (engaged && count > 1 && next && !failed.has(next))
      warmPhoto(next, variant === 'detail' ? PHOTO_SIZES.detail : PHOTO_SIZES.card);
  }, [engaged, index, images, count, failed, variant]);

  const go = (delta: number) => setIndex((i) => (count ? (i + delta + count) % count : 0));
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft') {
      e.preventDefault();
      go(-1);
    } else if (e.key === 'ArrowRight') {
      e.preventDefault();
      go(1);
    } else if (e.key === 'Enter' && onExpand && e.target === e.currentTarget && count) {
      e.preventDefault();
      onExpand(index);
    }
  };
  const onPointerDown = (e: PointerEvent) => {
    engage();
    swiped.current = false;
    if (e.pointerType === 'mouse') return;
    start.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
  };
  const onPointerUp = (e: PointerEvent) => {
    const s = start.current;
    start.current = null;
    if (!s || s.id !== e.pointerId) return;
    const dx = e.clientX - s.x;
    if (Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(e.clientY - s.y)) {
      swiped.current = true;
      go(dx < 0 ? 1 : -1);
    }
  };

  const frame = variant === 'detail' ? 'aspect-video max-h-[400px] w-full' : 'aspect-video w-full';
  const showPlaceholder = !current || failed.has(current);
  return (
    <div
      className={`relative overflow-hidden bg-surface-subtle select-none ${frame}`}
      role="group"
      aria-roledescription={t('carousel.role')}
      aria-label={t('carousel.label', { title })}
      part="carousel"
      tabIndex={count > 1 || (onExpand && count) ? 0 : -1}
      onKeyDown={onKey}
      onPointerDown={onPointerDown}
      onPointerUp={onPointerUp}
      onPointerCancel={() => (start.current = null)}
      onPointerEnter={count > 1 ? engage : undefined}
      onFocus={count > 1 ? engage : undefined}
      onClick={() => {
        if (swiped.current) return;
        if (onActivate) onActivate(index);
        else if (onExpand && count) onExpand(index);
      }}
      style={{ touchAction: 'pan-y', cursor: onActivate || (onExpand && count) ? 'pointer' : undefined }}
    >
      {showPlaceholder ? (
        <PropertyPlaceholder index={placeholderIndex(propertyId)} label={t('carousel.noPhoto')} />
      ) : (
        <Photo
          key={current}
          src={current}
          sizes={variant === 'detail' ? PHOTO_SIZES.detail : PHOTO_SIZES.card}
          width={variant === 'detail' ? 712 : 640}
          height={variant === 'detail' ? 400 : 360}
          alt={count > 1 ? t('carousel.photo', { index: index + 1, count, title }) : title}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          draggable={false}
          className="block w-full h-full object-cover"
          onError={() => setFailed((f) => new Set(f).add(current as string))}
        />
      )}
      {onExpand && count ? (
        <button
          type="button"
          aria-label={t('carousel.fullScreen')}
          onClick={(e) => {
            e.stopPropagation();
            onExpand(index);
          }}
          className="absolute bottom-2 right-2 z-[2] flex h-9 w-9 items-center justify-center rounded-full bg-white/90 text-ink shadow cursor-pointer hover:bg-white"
          part="full-screen"
        >
          <ExpandIcon size={18} />
        </button>
      ) : null}
      {count > 1 ? (
        <>
          <button
            type="button"
            aria-label={t('carousel.previous')}
            onClick={(e) => {
              e.stopPropagation();
              go(-1);
            }}
            className="exp-carousel-arrow absolute left-2 top-1/2 -translate-y-1/2 w-9 h-9 rounded-full bg-white/90 text-ink shadow flex items-center justify-center cursor-pointer hover:bg-white z-[2]"
          >
            <ChevronLeft size={18} />
          </button>
          <button
            type="button"
            aria-label={t('carousel.next')}
            onClick={(e) => {
              e.stopPropagation();
              go(1);
            }}
            className="exp-carousel-arrow absolute right-2 top-1/2 -translate-y-1/2 w-9 h-9 rounded-full bg-white/90 text-ink shadow flex items-center justify-center cursor-pointer hover:bg-white z-[2]"
          >
            <ChevronRight size={18} />
          </button>
          <div
            className="absolute bottom-2 left-0 right-0 flex justify-center gap-1.5 pointer-events-none z-[2]"
            aria-hidden="true"
          >
            {images.slice(0, 8).map((src, i) => (
              <span
                key={src}
                className={`block w-1.5 h-1.5 rounded-full ${i === index ? 'bg-white' : 'bg-white/50'}`}
              />
            ))}
          </div>
          <span className="exp-sr-only" aria-live="polite">
            {t('carousel.position', { index: index + 1, count })}
          </span>
        </>
      ) : null}
    </div>
  );
}
