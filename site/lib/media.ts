/**
 * Background films: the page ships with the poster only, an image (core/search-hero.ts filmHtml: it
 * paints at once and is the largest image); the small looping film, a `<video>` made here, is put over
 * it once the page has loaded and the poster is near the viewport, and never for visitors who asked
 * for reduced motion or to save data. A film not in view is paused.
 */
import { posterPath } from '../../core/search-hero.ts';

const SOURCES = (name: string) => [
  { src: `/media/video/${name}.webm`, type: 'video/webm' },
  { src: `/media/video/${name}.mp4`, type: 'video/mp4' },
];

function motionAllowed(): boolean {
  const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
  return !saveData && !matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The film made over a poster, if it was. */
const filmOver = (poster: HTMLImageElement): HTMLVideoElement | null =>
  poster.nextElementSibling instanceof HTMLVideoElement && poster.nextElementSibling.dataset.film !== undefined
    ? poster.nextElementSibling
    : null;

function play(video: HTMLVideoElement): void {
  video.play().catch(() => {
    // autoplay refused (power saving): the poster stays, which is fine
  });
}

function load(video: HTMLVideoElement, name: string): void {
  video.dataset.film = name;
  video.poster = posterPath(name);
  video.replaceChildren(
    ...SOURCES(name).map((s) => Object.assign(document.createElement('source'), { src: s.src, type: s.type })),
  );
  video.load();
}

/** The film over its poster: muted, looping, inline, hidden from assistive technology as the poster is. */
function attach(poster: HTMLImageElement): HTMLVideoElement | null {
  const name = poster.dataset.video;
  if (!name) return null;
  const made = filmOver(poster);
  if (made) return made;
  const video = document.createElement('video');
  video.className = poster.className;
  video.setAttribute('aria-hidden', 'true');
  video.muted = true;
  video.defaultMuted = true;
  video.loop = true;
  video.playsInline = true;
  video.autoplay = true;
  load(video, name);
  poster.after(video);
  return video;
}

export function startVideos(root: ParentNode = document): void {
  const posters = [...root.querySelectorAll<HTMLImageElement>('img[data-video]')];
  if (!posters.length || !motionAllowed()) return;
  const begin = () => {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const poster = entry.target as HTMLImageElement;
          if (entry.isIntersecting) {
            const video = attach(poster);
            if (video?.paused) play(video);
          } else filmOver(poster)?.pause();
        }
      },
      { rootMargin: '200px 0px' },
    );
    for (const p of posters) observer.observe(p);
  };
  if (document.readyState === 'complete') setTimeout(begin, 0);
  else addEventListener('load', () => setTimeout(begin, 0), { once: true });
}

/** Changes which film (and poster) a hero shows. */
export function setVideo(poster: HTMLImageElement, name: string): void {
  if (poster.dataset.video === name) return;
  poster.dataset.video = name;
  poster.src = posterPath(name);
  const video = filmOver(poster);
  if (!video) return;
  if (!motionAllowed()) return video.remove();
  load(video, name);
  play(video);
}
