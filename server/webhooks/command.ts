/**
 * What `npm run webhooks -- …` asks (docs/leads.md, "Webhooks"), read from its words and nothing
 * else, and what its result says: cli.ts opens the database, runs it and prints the lines. A command
 * that cannot be run is a UsageError (exit 2).
 */
import { UsageError } from '../db/open-for-command.ts';
import { WEBHOOK_EVENTS } from '../../core/functions/webhooks/events.ts';
import type { Database } from '../db/database.ts';
import { runWebhookCommand, type WebhookCommand } from './commands.ts';
import type { EndpointReport, EndpointRow } from './endpoints.ts';

const WEBHOOKS_USAGE = `usage: npm run webhooks -- add <https-url> --events ${WEBHOOK_EVENTS.join(',')} [--description D] [--dev]\n       npm run webhooks -- list | remove <id> | report\n(docs/leads.md)`;

function fail(message: string): never {
  throw new UsageError(message);
}

/** The command the words ask for; a UsageError says what is wrong with them. */
function webhookCommand(argv: readonly string[]): WebhookCommand {
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
      if (v === undefined) fail(`${a} needs a value`);
      values.set(a, v);
    } else if (a.startsWith('--')) fail(`unknown option ${a}`);
    else positional.push(a);
  }
  const [verb, arg, ...rest] = positional;
  if (rest.length) fail(`one ${verb === 'remove' ? 'id' : 'address'} at a time`);
  switch (verb) {
    case 'add':
      if (!arg) fail("add needs the endpoint's address");
      if (!values.has('--events')) fail(`add needs --events (any of ${WEBHOOK_EVENTS.join(', ')})`);
      return {
        command: 'add',
        url: arg,
        events: (values.get('--events') as string).split(','),
        description: values.get('--description'),
        dev,
      } as WebhookCommand;
    case 'remove':
      if (!arg) fail("remove needs the endpoint's id (npm run webhooks -- list)");
      return { command: 'remove', id: arg };
    case 'list':
    case 'report':
      if (arg) fail(`${verb} takes no argument`);
      return { command: verb };
    default:
      return fail(verb ? `unknown command ${verb}` : 'which command?');
  }
}

/** What a command's result says, line by line (a removal that found nothing is an Error). */
function webhookLines(command: WebhookCommand, result: unknown): string[] {
  const lines: string[] = [];
  const log = (line: string) => lines.push(line);
  if (command.command === 'add') {
    const e = result as EndpointRow & { secret: string };
    log(`[webhooks] endpoint ${e.id}: ${e.url} (${e.events.join(', ')})${e.allow_private ? ' [dev]' : ''}`);
    log(`[webhooks] its secret, shown only now; the receiver verifies each delivery with it:\n${e.secret}`);
  } else if (command.command === 'list') {
    const rows = result as EndpointRow[];
    if (!rows.length) log('[webhooks] no endpoints');
    for (const e of rows)
      log(
        `${e.id}\t${e.url}\t${e.events.join(',')}${e.allow_private ? '\t[dev]' : ''}${e.description ? `\t${e.description}` : ''}`,
      );
  } else if (command.command === 'remove') {
    const { removed } = result as { removed: boolean };
    if (!removed) throw new Error(`no endpoint ${command.id}`);
    log(`[webhooks] endpoint ${command.id} removed: nothing more is sent to it`);
  } else {
    const rows = result as EndpointReport[];
    if (!rows.length) log('[webhooks] no endpoints');
    for (const r of rows) {
      log(
        `${r.id} ${r.url} (${r.events.join(', ')}): ${r.delivered} delivered, ${r.waiting} waiting${r.retrying ? ` (${r.retrying} retrying)` : ''}, ${r.failed} failed${r.last_delivered_at ? `; last delivered ${new Date(r.last_delivered_at).toISOString()}` : ''}`,
      );
      if (r.last_error)
        log(
          `   last error: ${r.last_error}${r.last_failed_at ? ` (failed for good ${new Date(r.last_failed_at).toISOString()})` : ''}`,
        );
    }
  }
  return lines;
}

/**
 * A command run whole: its words read, the database opened (only for a command that can run) and
 * closed, its lines; the exit code 0 done, 1 refused or failed, 2 bad usage (then `err` holds the usage).
 */
export async function webhooks(
  argv: readonly string[],
  open: () => Promise<{ db: Database; close(): Promise<void> }>,
): Promise<{ code: 0 | 1 | 2; out: string[]; err: string[] }> {
  let command: WebhookCommand;
  try {
    command = webhookCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return { code: 2, out: [], err: [`[webhooks] ${error.message}`, WEBHOOKS_USAGE] };
  }
  try {
    const opened = await open();
    let result: unknown;
    try {
      result = await runWebhookCommand(opened.db, command);
    } finally {
      await opened.close();
    }
    return { code: 0, out: webhookLines(command, result), err: [] };
  } catch (error) {
    return { code: 1, out: [], err: [`[webhooks] ${(error as Error).message}`] };
  }
}
