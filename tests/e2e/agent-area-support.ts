/**
 * What the specs of the agents' area share (agent-area.spec.ts, agent-area-profile.spec.ts): the
 * mails the server sent, signing in with the code from one, and taking away what a test added.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { Page } from '@playwright/test';
import type { TestServer } from '../support/servers.ts';
import { until } from '../support/until.ts';
import { expect } from './fixtures.ts';

export async function mails(dir: string): Promise<ParsedMail[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  return Promise.all(files.map((f) => simpleParser(readFileSync(join(dir, f)))));
}
export const to = (m: ParsedMail) =>
  (Array.isArray(m.to) ? m.to.map((a) => a.text).join(',') : (m.to?.text ?? '')).toLowerCase();

/** She asks for a code with her address, reads it in the mail the server sent, and signs in (the area open in Spanish). */
export async function signIn(page: Page, data: { outboxDir: string }, email: string) {
  const area = page.locator('exp-agent-area');
  // (the mails of the worker's earlier tests stay in its outbox: this code is in a mail that comes after)
  const before = new Set(readdirSync(data.outboxDir));
  await area.getByLabel('Correo', { exact: true }).fill(email);
  await area.getByRole('button', { name: 'Envíame un código' }).click();
  const mail = await until(async () => {
    const fresh = readdirSync(data.outboxDir).filter((f) => f.endsWith('.eml') && !before.has(f));
    const parsed = await Promise.all(fresh.map((f) => simpleParser(readFileSync(join(data.outboxDir, f)))));
    // (her code's mail: another mail to her, such as a lead given to her, may come in meanwhile)
    return parsed.find((m) => to(m).includes(email) && /\b\d{6}\b/.test(m.text ?? ''));
  });
  const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1] ?? '';
  expect(code).toMatch(/^\d{6}$/);
  await area.getByLabel('El código del correo').fill(code);
  await area.getByRole('button', { name: 'Entrar' }).click();
}

/** Ana Móvil, an agent of the office, whom the area's tests sign in as (cleanUpAgentArea takes her away): her id. */
export async function addAna(data: Pick<TestServer, 'sql'>): Promise<string> {
  const [ana] = await data.sql<{ id: string }>(
    "insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Móvil', 'ana.movil@example.com', 'EC') returning id::text as id",
  );
  return String(ana?.id);
}

/** The worker's database is shared with the other specs (the directory counts its agents): what a test of the area adds, it takes away. */
export async function cleanUpAgentArea(data: Pick<TestServer, 'sql'>): Promise<void> {
  await data.sql("delete from public.inquiries where idempotency_key like 'e2e-area-%'");
  await data.sql("delete from internal.saved_searches where idempotency_key = 'e2e-area-sub'");
  await data.sql(
    "delete from internal.mail_outbox where ref_id in (select id::text from internal.visit_requests where email = 'vera.visita@example.com')",
  );
  await data.sql("delete from internal.visit_requests where email = 'vera.visita@example.com'");
  // (and the codes mailed, so that the next test's one-a-minute limit is its own)
  await data.sql(
    "delete from internal.auth_codes where lower(email) in ('ana.movil@example.com', 'bruno.otro@example.com', 'nadie.aqui@example.com', 'equipo.movil@example.com')",
  );
  await data.sql("delete from public.agents where email in ('ana.movil@example.com', 'bruno.otro@example.com')");
  await data.sql(
    "delete from auth.users where email in ('ana.movil@example.com', 'bruno.otro@example.com', 'nadie.aqui@example.com', 'equipo.movil@example.com')",
  );
  await data.sql(
    "delete from internal.mail_outbox where kind in ('lead-reassigned', 'follow-ups') and recipient in ('ana.movil@example.com', 'bruno.otro@example.com')",
  );
}
