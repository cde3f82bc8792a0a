/**
 * npm run webhooks -- add <url> --events inquiry.created,alert.confirmed [--description D] [--dev]
 * npm run webhooks -- list
 * npm run webhooks -- remove <id>
 * npm run webhooks -- report
 *
 * The signed webhooks a CRM receives (docs/leads.md, "Webhooks"). `add` prints the endpoint's
 * secret once (whsec_...): the receiver verifies each delivery with it. `--dev` lets an endpoint be
 * http or on a private network (development only). `report`: each endpoint's deliveries, delivered,
 * waiting (and retrying), failed, the last error. The database is the one `npm start` uses
 * (DATABASE_URL, else the embedded PostgreSQL in DATA_DIR, running or not).
 * Exit code: 0 done, 1 refused or failed, 2 bad usage.
 */
import { resolve } from 'node:path';
import { openForCommand } from '../db/open-for-command.ts';
import { migrate } from '../db/setup.ts';
import { WEBHOOK_EVENTS } from '../../core/functions/webhooks/events.ts';
import { runWebhookCommand, type WebhookCommand } from './commands.ts';
import type { EndpointReport, EndpointRow } from './endpoints.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = resolve(root, process.env.DATA_DIR ?? '.data');

function usage(message: string): never {
  console.error(
    `[webhooks] ${message}\nusage: npm run webhooks -- add <https-url> --events ${WEBHOOK_EVENTS.join(',')} [--description D] [--dev]\n       npm run webhooks -- list | remove <id> | report\n(docs/leads.md)`,
  );
  process.exit(2);
}

function parse(argv: string[]): { command: WebhookCommand } {
  const positional: string[] = [];
  const values = new Map<string, string>();
  let dev = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--dev') dev = true;
    // --postgres chose the embedded PostgreSQL when it was not the default; it still means it
    else if (a === '--postgres') continue;
    else if (a === '--events' || a === '--description') {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      values.set(a, v);
    } else if (a.startsWith('--')) usage(`unknown option ${a}`);
    else positional.push(a);
  }
  const [verb, arg, ...rest] = positional;
  if (rest.length) usage(`one ${verb === 'remove' ? 'id' : 'address'} at a time`);
  switch (verb) {
    case 'add':
      if (!arg) usage("add needs the endpoint's address");
      if (!values.has('--events')) usage(`add needs --events (any of ${WEBHOOK_EVENTS.join(', ')})`);
      return {
        command: {
          command: 'add',
          url: arg,
          events: (values.get('--events') as string).split(','),
          description: values.get('--description'),
          dev,
        } as WebhookCommand,
      };
    case 'remove':
      if (!arg) usage("remove needs the endpoint's id (npm run webhooks -- list)");
      return { command: { command: 'remove', id: arg } };
    case 'list':
    case 'report':
      if (arg) usage(`${verb} takes no argument`);
      return { command: { command: verb } };
    default:
      return usage(verb ? `unknown command ${verb}` : 'which command?');
  }
}

function print(command: WebhookCommand, result: unknown): void {
  if (command.command === 'add') {
    const e = result as EndpointRow & { secret: string };
    console.log(`[webhooks] endpoint ${e.id}: ${e.url} (${e.events.join(', ')})${e.allow_private ? ' [dev]' : ''}`);
    console.log(`[webhooks] its secret, shown only now; the receiver verifies each delivery with it:\n${e.secret}`);
  } else if (command.command === 'list') {
    const rows = result as EndpointRow[];
    if (!rows.length) console.log('[webhooks] no endpoints');
    for (const e of rows)
      console.log(
        `${e.id}\t${e.url}\t${e.events.join(',')}${e.allow_private ? '\t[dev]' : ''}${e.description ? `\t${e.description}` : ''}`,
      );
  } else if (command.command === 'remove') {
    const { removed } = result as { removed: boolean };
    if (!removed) throw new Error(`no endpoint ${command.id}`);
    console.log(`[webhooks] endpoint ${command.id} removed: nothing more is sent to it`);
  } else {
    const rows = result as EndpointReport[];
    if (!rows.length) console.log('[webhooks] no endpoints');
    for (const r of rows) {
      console.log(
        `${r.id} ${r.url} (${r.events.join(', ')}): ${r.delivered} delivered, ${r.waiting} waiting${r.retrying ? ` (${r.retrying} retrying)` : ''}, ${r.failed} failed${r.last_delivered_at ? `; last delivered ${new Date(r.last_delivered_at).toISOString()}` : ''}`,
      );
      if (r.last_error)
        console.log(
          `   last error: ${r.last_error}${r.last_failed_at ? ` (failed for good ${new Date(r.last_failed_at).toISOString()})` : ''}`,
        );
    }
  }
}

async function main(): Promise<void> {
  const { command } = parse(process.argv.slice(2));
  const opened = await openForCommand(dataDir);
  let result: unknown;
  try {
    await migrate(opened.db);
    result = await runWebhookCommand(opened.db, command);
  } finally {
    await opened.close();
  }
  print(command, result);
}

main().catch((error: unknown) => {
  console.error(`[webhooks] ${(error as Error).message}`);
  process.exitCode = 1;
});
