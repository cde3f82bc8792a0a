/**
 * The agents' area as an agent uses it on her phone (docs/agent-area.md), at 390 px: she opens
 * /es/agent, asks for a code with her address, reads it in the mail the server sent, signs in,
 * sees her own new lead (and not the other agent's), moves it to "Contactado" with a note and a
 * follow-up day, and the database holds it, with the trail saying she did. An address that is no
 * agent's gets the same answer and no mail. Axe finds nothing serious; nothing is cut off at 320 px.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { expect, seriousAxeViolations, test } from './fixtures.ts';
import { until } from '../support/until.ts';

const shots = resolve(import.meta.dirname, '../../.cache/screenshots/agent-area');

async function mails(dir: string): Promise<ParsedMail[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  return Promise.all(files.map((f) => simpleParser(readFileSync(join(dir, f)))));
}
const to = (m: ParsedMail) => (Array.isArray(m.to) ? m.to.map((a) => a.text).join(',') : (m.to?.text ?? '')).toLowerCase();

test.describe("the agents' area", () => {
  // the worker's database is shared with the other specs (the directory counts its agents): what this test adds, it takes away
  test.afterEach(async ({ data }) => {
    await data.sql("delete from public.inquiries where idempotency_key like 'e2e-area-%'");
    await data.sql("delete from public.agents where email in ('ana.movil@example.com', 'bruno.otro@example.com')");
    await data.sql("delete from auth.users where email in ('ana.movil@example.com', 'bruno.otro@example.com', 'nadie.aqui@example.com')");
  });

  test('an agent signs in with the code from her mail, sees her own lead only, and moves it to contacted with a note', async ({ page, data, consoleErrors }) => {
    const [ana, bruno] = await data.sql<{ id: string }>(
      `insert into public.agents (first_name, last_name, email, country_code) values ('Ana', 'Móvil', 'ana.movil@example.com', 'EC'), ('Bruno', 'Otro', 'bruno.otro@example.com', 'EC')
       returning id::text as id`,
    );
    const lead = async (key: string, owner: string, name: string) =>
      (
        await data.sql<{ id: string }>(
          `insert into public.inquiries (idempotency_key, name, email, phone, message, property_title, recipient_email, recipient_kind, lead_agent_id, lang, element, page_url)
           values ($1, $2, 'cliente@example.com', '0991234567', '¿Sigue disponible? Quisiera verla el sábado.', 'Casa en Cumbayá', 'x@example.com', 'lead_agent', $3::bigint, 'es', 'exp-property-search', 'https://ana.example.com/')
           returning id::text as id`,
          [key, name, owner],
        )
      )[0]!.id;
    const mine = await lead('e2e-area-ana', ana!.id, 'Carla Compradora');
    await lead('e2e-area-bruno', bruno!.id, 'Daniel Desconocido');

    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(`${data.url}/es/agent`);
    const area = page.locator('exp-agent-area');
    await expect(area.getByRole('heading', { name: 'Agentes: entrar' })).toBeVisible();
    await page.screenshot({ path: join(shots, 'sign-in-1366.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    // an address that is no agent's: the same answer, and no mail
    await area.getByLabel('Correo').fill('nadie.aqui@example.com');
    await area.getByRole('button', { name: 'Envíame un código' }).click();
    await expect(area.getByRole('status').first()).toContainText('Si nadie.aqui@example.com es el correo de un agente');
    await area.getByRole('button', { name: 'Usar otro correo' }).click();
    // hers
    await area.getByLabel('Correo').fill('ana.movil@example.com');
    await area.getByRole('button', { name: 'Envíame un código' }).click();
    const mail = await until(async () => (await mails(data.outboxDir)).find((m) => to(m).includes('ana.movil@example.com')));
    expect((await mails(data.outboxDir)).some((m) => to(m).includes('nadie.aqui@example.com'))).toBe(false);
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    await area.getByLabel('El código del correo').fill(code);
    await area.getByRole('button', { name: 'Entrar' }).click();

    // her lead, not Bruno's
    await expect(area.getByRole('heading', { name: 'Tus contactos' })).toBeVisible();
    const card = area.getByRole('article', { name: 'Carla Compradora' });
    await expect(card).toBeVisible();
    await expect(area.getByRole('article', { name: 'Daniel Desconocido' })).toHaveCount(0);
    await expect(card.getByText('Sobre Casa en Cumbayá')).toBeVisible();
    await expect(card.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('href', /^https:\/\/wa\.me\/593991234567\?text=Hola%20Carla/);
    await page.screenshot({ path: join(shots, 'leads-390.png'), fullPage: true });

    // what she sees, as a spreadsheet's file: her lead only, a formula kept as text
    const [download] = await Promise.all([page.waitForEvent('download'), area.getByRole('button', { name: 'Descargar estos contactos (CSV)' }).click()]);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(csv).toContain('"Carla Compradora"');
    expect(csv).not.toContain('Daniel Desconocido');
    // only valuations: none of hers
    await area.getByLabel('Sobre').selectOption('valuation');
    await expect(area.getByRole('status').filter({ hasText: 'contactos' })).toHaveText('0 contactos');
    await area.getByLabel('Sobre').selectOption('');

    // moved to contacted, with a note and a follow-up day
    await card.getByLabel('Estado').selectOption('contacted');
    await card.getByLabel('Seguimiento el').fill('2026-06-20');
    await card.getByLabel(/^Nota/).fill('Llamé: visita el sábado a las 10');
    await card.getByRole('button', { name: 'Guardar' }).click();
    await expect(card.getByText('Guardado.')).toBeVisible();
    const [row] = await data.sql<{ status: string; follow_up_on: string; notes: number; by: string | null }>(
      `select i.status, i.follow_up_on::text as follow_up_on, (select count(*)::int from public.lead_notes n where n.lead_id = i.id) as notes,
              (select u.email from public.lead_events e join auth.users u on u.id = e.by_user where e.lead_id = i.id and e.what = 'changed') as by
         from public.inquiries i where i.id = $1`,
      [mine],
    );
    expect(row).toEqual({ status: 'contacted', follow_up_on: '2026-06-20', notes: 1, by: 'ana.movil@example.com' });

    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(shots, 'leads-320.png'), fullPage: true });
    expect(consoleErrors).toEqual([]);
  });
});
