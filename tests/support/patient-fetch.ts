/**
 * A request as a search engine's crawler makes it: asked to wait (429, or 503 with Retry-After:
 * a page whose data did not answer in time on a loaded machine), it waits as long as it is told
 * and asks again, a few times at most. The waits are kept, so a test can say how often it was
 * asked (docs/architecture.md "Deadlines and fair shares").
 */
export async function patientFetch(
  url: string,
  init: RequestInit = {},
  waits: string[] = [],
  tries = 5,
): Promise<Response> {
  let res = await fetch(url, init);
  for (let retry = 0; retry < tries && (res.status === 429 || res.status === 503); retry++) {
    const wait = Number(res.headers.get('retry-after'));
    // a refusal that does not say when to come back is the server's fault, not the machine's
    if (!(wait > 0)) return res;
    waits.push(`${res.status} ${url}`);
    await res.body?.cancel();
    await new Promise((r) => setTimeout(r, wait * 1000));
    res = await fetch(url, init);
  }
  return res;
}
