/**
 * A lazily loaded chunk that can be retried after a failed download. Some browsers (Chromium up to
 * about version 154, Safari) keep a failed module in their module map, so importing the same URL
 * again fails at once without a request. After a failure, the next attempt imports the chunk under
 * a new URL (the URL the browser named in its error, with ?retry=n); its own imports resolve to the
 * modules already loaded. Browsers that name no URL simply import again. Calls while a download
 * is on its way share it (a prefetch and the load that needs the chunk make one request).
 */
const URL_IN_ERROR = /(https?:\/\/[^\s'"]+?\.m?[jt]sx?)(?:[?#][^\s'"]*)?(?=[\s'"]|$)/;

export function lazyChunk<T>(
  load: () => Promise<T>,
  importUrl: (url: string) => Promise<unknown> = (url) => import(/* @vite-ignore */ url),
): () => Promise<T> {
  let failed: string | undefined;
  let attempt = 0;
  let pending: Promise<T> | undefined;
  const attemptLoad = async (): Promise<T> => {
    try {
      if (!failed) return await load();
      attempt++;
      return (await importUrl(`${failed}?retry=${attempt}`)) as T;
    } catch (error) {
      failed ??= URL_IN_ERROR.exec(String((error as Error | undefined)?.message ?? ''))?.[1];
      throw error;
    }
  };
  return () => {
    pending ??= attemptLoad().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
