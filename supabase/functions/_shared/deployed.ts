// What every deployed function wires the same way: Deno's environment, npm:pg's pool, npm:nodemailer's
// transport and the mails' texts, handed to the setup the functions share with nothing else
// (core/functions/deno-setup.ts). A folder whose name starts with "_" is shared code, not a
// function (Supabase's convention); the CLI uploads it with each function that imports it.
import pg from 'pg';
import nodemailer from 'nodemailer';
import en from '../../../core/locales/en.json' with { type: 'json' };
import es from '../../../core/locales/es.json' with { type: 'json' };
import { setUpFunction } from '../../../core/functions/deno-setup.ts';

export { background } from '../../../core/functions/deno-setup.ts';

export type DeployedFunction = ReturnType<typeof setUpFunction>;

/** Serves the function `name` with the handler `handler` makes from its setup (its pool, settings, texts, outbox). */
export function serveFunction(
  name: string,
  handler: (fn: DeployedFunction) => Parameters<DeployedFunction['serve']>[0],
): void {
  const fn = setUpFunction({
    name,
    env: (key) => Deno.env.get(key),
    Pool: pg.Pool,
    createTransport: (options) => nodemailer.createTransport(options),
    texts: { en, es },
  });
  Deno.serve(fn.serve(handler(fn)));
}
