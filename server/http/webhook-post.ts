/**
 * Webhooks posted by our server (docs/leads.md, "Webhooks"), through the safe fetcher: https to a
 * public address only (the name resolved and checked as the connection is made, so a name that
 * points at a private address is refused too), no redirect followed, 10 s at most. An endpoint
 * registered with --dev may be http or on a private network (a CRM on the developer's machine).
 */
import { DeliveryFailed, type Poster } from '../../core/functions/webhooks/deliver.ts';
import { FetchRefused, safeFetch, type HostRule, type SafeFetchOptions } from './safe-fetch.ts';

export function safePoster(resolve?: SafeFetchOptions['resolve']): Poster {
  return async (url, body, headers, { allowPrivate }) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new DeliveryFailed(`not an address: ${url.slice(0, 200)}`, true);
    }
    const rule: HostRule = allowPrivate
      ? {
          host: u.hostname.replace(/^\[|\]$/g, '').toLowerCase(),
          wildcard: false,
          protocols: ['https:', 'http:'],
          port: u.port || (u.protocol === 'https:' ? '443' : '80'),
          privateNamed: true,
        }
      : { host: '', wildcard: true, protocols: ['https:'], privateNamed: false };
    try {
      const answer = await safeFetch(url, {
        allow: [rule],
        post: body,
        headers,
        maxBytes: 1024 * 1024,
        totalTimeoutMs: 10_000,
        maxRedirects: 0,
        statuses: 'any',
        listName: 'addresses webhooks are sent to (https, outside private networks)',
        ...(resolve ? { resolve } : {}),
      });
      return { status: answer.status };
    } catch (error) {
      if (error instanceof FetchRefused) throw new DeliveryFailed(error.message, error.kind === 'refused');
      throw error;
    }
  };
}
