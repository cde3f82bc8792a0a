/**
 * Third-party widgets (docs/product.md §4): the social feed and the webinar card. The script loads only
 * when its block comes near the viewport; any earlier copy of it is removed first; the widget is
 * given a second to render after the script loads; when the script fails or nothing renders, the
 * block keeps (or shows) its plain fallback. Nothing third-party is needed for the page to work.
 */
const REINIT_DELAY_MS = 1000;
const RENDER_TIMEOUT_MS = 8000;

export interface WidgetOptions {
  /** the block the widget renders into */
  container: HTMLElement;
  /** the widget's script */
  src: string;
  /** called once the script ran: (re)initialise the widgets in the container */
  init?: () => void;
  /** did the widget render something? */
  rendered: (container: HTMLElement) => boolean;
  /** the script failed or nothing rendered in time */
  onError: (reason: string) => void;
  onReady?: () => void;
}

function loadScript(src: string): Promise<void> {
  for (const old of document.querySelectorAll<HTMLScriptElement>('script[data-exp-third-party]')) {
    if (old.src === new URL(src, location.href).href) old.remove();
  }
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.dataset.expThirdParty = '';
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}

export function loadWidget(options: WidgetOptions): void {
  const { container } = options;
  let done = false;
  const fail = (reason: string) => {
    if (done) return;
    done = true;
    console.warn(`[site] third-party widget unavailable (${reason}): ${options.src}`);
    options.onError(reason);
  };
  const start = () => {
    loadScript(options.src)
      .then(() => {
        setTimeout(() => {
          try {
            options.init?.();
          } catch (error) {
            fail(String(error));
            return;
          }
          const deadline = Date.now() + RENDER_TIMEOUT_MS;
          const check = () => {
            if (done) return;
            if (options.rendered(container)) {
              done = true;
              options.onReady?.();
            } else if (Date.now() > deadline) fail('nothing rendered');
            else setTimeout(check, 250);
          };
          check();
        }, REINIT_DELAY_MS);
      })
      .catch((error: Error) => fail(error.message));
  };
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        start();
      }
    },
    { rootMargin: '300px 0px' },
  );
  observer.observe(container);
}
