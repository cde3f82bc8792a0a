/**
 * A listing's page view or save, counted for its agent's weekly figures (docs/agent-area.md "Her
 * listings"): fire and forget, counts only (nothing of the visitor is sent but the listing's id).
 */
import type { ApiConfig } from '../config.ts';
import { authHeaders } from './client.ts';

export function countListingEvent(config: ApiConfig, listingId: string, event: 'view' | 'save'): void {
  fetch(`${config.url}/functions/v1/listing-events`, {
    method: 'POST',
    keepalive: true,
    headers: { ...authHeaders(config), 'Content-Type': 'application/json' },
    body: JSON.stringify({ listingId, event }),
  })
    // the answer is read to its end, so the request ends (an unread answer holds it open)
    .then((res) => res.text())
    .catch(() => {});
}
