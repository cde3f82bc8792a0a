import { PostgrestClient } from '@supabase/postgrest-js';
import { FunctionsClient } from '@supabase/functions-js';
import type { ApiConfig } from '../config.ts';

export interface DataClients {
  rest: PostgrestClient;
  functions: FunctionsClient;
  config: ApiConfig;
}

const clients = new Map<string, DataClients>();

/**
 * The same protocol as @supabase/supabase-js (PostgREST + edge functions) at a fraction of its
 * weight. One pair of clients per backend, shared by every element that points at it.
 */
export function getClients(config: ApiConfig): DataClients {
  const id = `${config.url}\n${config.key}`;
  let found = clients.get(id);
  if (!found) {
    const headers = { apikey: config.key, Authorization: `Bearer ${config.key}` };
    found = {
      rest: new PostgrestClient(`${config.url}/rest/v1`, { headers }),
      functions: new FunctionsClient(`${config.url}/functions/v1`, { headers }),
      config,
    };
    clients.set(id, found);
  }
  return found;
}
