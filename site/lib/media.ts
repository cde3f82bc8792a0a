/**
 * Background videos: the page ships with the poster only (it paints at once and is the largest
 * image); the small looping video is attached once the page has loaded and the video is near the
 * viewport, and never for visitors who asked for reduced motion or to save data.
 */
const SOURCES = (name: string) => [
  { src: `/media/video/${name}.webm`, type: 'video/webm' },
  { src: `/media/video/${name}.mp4`, type: 'video/mp4' },
];

function motionAllowed(): boolean {
  const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
  return !saveData && !matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function attach(video: HTMLVideoElement): void {
  const name = video.dataset.video;
  if (!name || video.dataset.attached) return;
  video.dataset.attached = 'true';
  const fallback = video.firstChild; // the 'does not support the video tag' text stays last
  for (const s of SOURCES(name)) {
    const source = document.createElement('source');
    source.src = s.src;
    source.type = s.type;
    video.insertBefore(source, fallback);
  }
  video.muted = true;
  video.load();
  video.play().catch(() => {
    // autoplay refused (power saving): the poster stays, which is fine
  });
}

export function startVideos(root: ParentNode = document): void {
  const videos = [...root.querySelectorAll<HTMLVideoElement>('video[data-video]')];
  if (!videos.length || !motionAllowed()) return;
  const begin = () => {
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const video = entry.target as HTMLVideoElement;
          if (entry.isIntersecting) {
            attach(video);
            if (video.paused) video.play().catch(() => {});
          } else if (video.dataset.attached) video.pause();
        }
      },
      { rootMargin: '200px 0px' },
    );
    for (const v of videos) observer.observe(v);
  };
  if (document.readyState === 'complete') setTimeout(begin, 0);
  else addEventListener('load', () => setTimeout(begin, 0), { once: true });
}

/** Changes which video (and poster) a hero shows. */
export function setVideo(video: HTMLVideoElement, name: string): void {
  if (video.dataset.video === name) return;
  video.dataset.video = name;
  video.poster = `/media/video/${name}-poster.webp`;
  if (video.dataset.attached) {
    delete video.dataset.attached;
    for (const s of video.querySelectorAll('source')) s.remove();
    if (motionAllowed()) attach(video);
  }
}
