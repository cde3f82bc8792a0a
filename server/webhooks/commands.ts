/**
 * What `npm run webhooks` does, as commands a JSON object can carry, run on the database.
 */
import type { Database } from '../db/database.ts';
import { addEndpoint, listEndpoints, removeEndpoint, webhookReport, WebhookInputError } from './endpoints.ts';

export type WebhookCommand =
  | { command: 'add'; url: string; events: string[]; description?: string; dev?: boolean }
  | { command: 'list' }
  | { command: 'remove'; id: string }
  | { command: 'report' };

export async function runWebhookCommand(db: Database, raw: Record<string, unknown>): Promise<unknown> {
  const c = raw as WebhookCommand;
  switch (c.command) {
    case 'add':
      if (typeof c.url !== 'string' || !Array.isArray(c.events) || !c.events.every((e) => typeof e === 'string'))
        throw new WebhookInputError('add needs a url and a list of events');
      return addEndpoint(db, {
        url: c.url,
        events: c.events,
        description: typeof c.description === 'string' ? c.description : undefined,
        dev: c.dev === true,
      });
    case 'list':
      return listEndpoints(db);
    case 'remove':
      if (typeof c.id !== 'string') throw new WebhookInputError('remove needs an id');
      return { removed: await removeEndpoint(db, c.id) };
    case 'report':
      return webhookReport(db);
    default:
      throw new WebhookInputError(
        `unknown command ${JSON.stringify((raw as { command?: unknown }).command)}: add, list, remove or report`,
      );
  }
}
