/**
 * The edge functions' client (functions-js), one per backend like the REST client (client.ts); it
 * lives apart from the runtime, so only the elements that call a function (a form) download it.
 */
import { FunctionsClient } from '@supabase/functions-js';
import type { ApiConfig } from '../config.ts';
import { authHeaders } from './client.ts';
import { fetchWithDeadline } from './deadline.ts';

const clients = new Map<string, FunctionsClient>();

export function functionsClient(config: ApiConfig): FunctionsClient {
  const id = `${config.url}\n${config.key}`;
  let found = clients.get(id);
  if (!found) {
    found = new FunctionsClient(`${config.url}/functions/v1`, {
      headers: authHeaders(config),
      customFetch: fetchWithDeadline,
    });
    clients.set(id, found);
  }
  return found;
}
