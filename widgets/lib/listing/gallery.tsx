/**
 * A listing's photos full screen (docs/product.md §2, "Photos"): one photo at a time, whole
 * (contained, never cropped), on a dark screen in the top layer (the native modal <dialog>); the
 * arrows, the arrow keys and a swipe move, a counter says where, Escape or Close ends it and the
 * focus goes back to what opened it. The next and the previous photos are loaded ahead.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { placeholderIndex } from '../../../core/protocol/listing.ts';
import { useElement } from '../element.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { CloseIcon } from '../ui/icons/close.tsx';
import { ChevronLeft } from '../ui/icons/chevron-left.tsx';
import { ChevronRight } from '../ui/icons/chevron-right.tsx';
import { Photo, PHOTO_SIZES, warmPhoto } from '../ui/photo.tsx';
import { PropertyPlaceholder } from '../ui/placeholder.tsx';

export interface GalleryProps {
  images: string[];
  propertyId: string;
  title: string;
  /** the photo to start at; null: closed */
  start: number | null;
  onClose: () => void;
}

export function Gallery({ images, propertyId, title, start, onClose }: GalleryProps) {
  const { t } = useElement();
  const titleId = useId();
  const [index, setIndex] = useState(start ?? 0);
  const [failed, setFailed] = useState<Set<string>>(() => new Set());
  const swipe = useRef<{ x: number; y: number; id: number } | null>(null);
  const count = images.length;
  useEffect(() => {
    if (start !== null) setIndex(Math.min(Math.max(0, start), Math.max(0, count - 1)));
  }, [start, count]);
  useEffect(() => {
    if (start === null || count < 2) return;
    for (const i of [index + 1, index - 1]) {
      const src = images[(i + count) % count];
      if (src && !failed.has(src)) warmPhoto(src, PHOTO_SIZES.full);
    }
  }, [start, index, images, count, failed]);

  const go = (delta: number) => setIndex((i) => (count ? (i + delta + count) % count : 0));
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      go(e.key === 'ArrowLeft' ? -1 : 1);
    }
  };
  const onPointerDown = (e: PointerEvent) => {
    if (e.pointerType !== 'mouse') swipe.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
  };
  const onPointerUp = (e: PointerEvent) => {
    const s = swipe.current;
    swipe.current = null;
    if (!s || s.id !== e.pointerId) return;
    const dx = e.clientX - s.x;
    if (Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(e.clientY - s.y)) go(dx < 0 ? 1 : -1);
  };
  const current = images[index];
  const arrow =
    'absolute top-1/2 -translate-y-1/2 z-[2] flex h-11 w-11 items-center justify-center rounded-full bg-white/90 text-ink shadow cursor-pointer hover:bg-white';
  return (
    <Dialog open={start !== null} onClose={onClose} labelledBy={titleId} variant="sheet" part="gallery">
      <div className="flex h-full w-full flex-col bg-[#0b1220] text-white" onKeyDown={onKeyDown}>
        <div className="flex items-center justify-between gap-3 px-4 py-2">
          <h2 id={titleId} className="m-0 min-w-0 truncate text-base font-semibold">
            {title}
          </h2>
          <p className="m-0 shrink-0 text-sm tabular-nums" aria-live="polite" part="gallery-counter">
            {count ? t('carousel.position', { index: index + 1, count }) : ''}
          </p>
          <button
            type="button"
            onClick={onClose}
            aria-label={t('common.close')}
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-transparent text-white cursor-pointer hover:bg-white/10"
          >
            <CloseIcon size={22} />
          </button>
        </div>
        <div
          className="relative flex min-h-0 flex-1 items-center justify-center select-none"
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={() => (swipe.current = null)}
          style={{ touchAction: 'pan-y' }}
        >
          {!current || failed.has(current) ? (
            <div className="aspect-video w-full max-w-[960px]">
              <PropertyPlaceholder index={placeholderIndex(propertyId)} label={t('carousel.noPhoto')} />
            </div>
          ) : (
            <Photo
              key={current}
              src={current}
              sizes={PHOTO_SIZES.full}
              alt={t('carousel.photo', { index: index + 1, count, title })}
              decoding="async"
              draggable={false}
              className="block max-h-full max-w-full object-contain"
              part="gallery-photo"
              onError={() => setFailed((f) => new Set(f).add(current))}
            />
          )}
          {count > 1 ? (
            <>
              <button
                type="button"
                aria-label={t('carousel.previous')}
                onClick={() => go(-1)}
                className={`${arrow} left-3`}
              >
                <ChevronLeft size={22} />
              </button>
              <button
                type="button"
                aria-label={t('carousel.next')}
                onClick={() => go(1)}
                className={`${arrow} right-3`}
              >
                <ChevronRight size={22} />
              </button>
            </>
          ) : null}
        </div>
      </div>
    </Dialog>
  );
}
