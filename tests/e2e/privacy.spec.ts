/**
 * Privacy under Ecuador's LOPDP (docs/privacy.md), as a visitor meets it on her phone (390 px):
 * the notice names every item Art. 12 asks for, in both languages, read as a crawler reads it
 * (the raw HTML, no script) and by axe; the footer and the inquiry form link it. Then her data: she
 * sent an inquiry with a visit request (ticking one optional box: marketing mail) and follows a
 * search; on /es/privacidad/mis-datos she asks for her data, opens the link the mail brings, sees
 * all three and her consent, withdraws the consent, downloads everything as JSON, and erases it; the link is used up, and the database keeps none of her name, e-mail or phone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { simpleParser } from 'mailparser';
import { parseHtml } from '../support/crawled-pages.ts';
import { NOTICE_SECTIONS } from '../../core/protocol/privacy.ts';
import { withdrawLink } from '../../core/functions/privacy/consents.ts';
import { SITE } from '../../core/site.ts';
import { until } from '../support/until.ts';
import { expect, screenshotDir, scrolledTo, seriousAxeViolations, sideways, test } from './fixtures.ts';

const shots = screenshotDir('privacy');
const HER = { name: 'Inés Borrable', email: 'ines.borrable@example.com', phone: '+593 99 765 4321' };

test.describe("privacy under Ecuador's law", () => {
  test.afterEach(async ({ data }) => {
    await data.sql("delete from internal.privacy_requests where email = $1 or kind <> 'access'", [HER.email]);
  });

  test('the notice names every item of Art. 12 in both languages, for a crawler and for axe; the footer and the inquiry form link it', async ({
    page,
    data,
    consoleErrors,
  }) => {
    for (const [path, lang] of [
      ['/privacy', 'en'],
      ['/es/privacidad', 'es'],
    ] as const) {
      // as a crawler reads it: the raw HTML
      const res = await fetch(`${data.url}${path}`, { headers: { Accept: 'text/html' } });
      expect(res.status, path).toBe(200);
      const doc = parseHtml(await res.text());
      expect(doc.documentElement.lang, path).toBe(lang);
      const texts = JSON.parse(
        readFileSync(resolve(import.meta.dirname, `../../core/locales/${lang}.json`), 'utf8'),
      ) as {
        site: { privacy: { notice: { sections: Record<string, { title: string }> } } };
      };
      for (const key of NOTICE_SECTIONS) {
        const section = doc.getElementById(key);
        expect(section, `${path} #${key}`).not.toBeNull();
        // (no officer appointed by default: the section says so)
        const title = texts.site.privacy.notice.sections[key === 'dpo' ? 'dpoNone' : key]!.title;
        expect(section!.querySelector('h2')?.textContent, `${path} #${key}`).toBe(title);
        expect(section!.querySelector('p')?.textContent?.length ?? 0, `${path} #${key}`).toBeGreaterThan(40);
        expect(section!.textContent, `${path} #${key}`).not.toMatch(/\{\{|site\.privacy/);
      }
      // the operator's details, from the configuration
      const controller = doc.getElementById('controller')!.textContent ?? '';
      for (const fact of [SITE.name, SITE.email, SITE.phone, SITE.office.street])
        expect(controller, path).toContain(fact);
      expect(doc.getElementById('retention')!.textContent, path).toMatch(/24/);
      expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href'), path).toBe(`${data.url}${path}`);
    }

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/es/privacidad`);
    await expect(page.getByRole('heading', { level: 1, name: 'Aviso de privacidad' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(shots, 'notice-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({ path: join(shots, 'notice-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    // the footer links the notice and the page of her data
    const footer = await scrolledTo(page.locator('exp-site-footer'));
    await expect(footer.getByRole('link', { name: 'Aviso de privacidad' })).toHaveAttribute('href', '/es/privacidad');
    await expect(footer.getByRole('link', { name: 'Tus datos' })).toHaveAttribute('href', '/es/privacidad/mis-datos');
    // the inquiry form says in one line what happens to what she types, and links the notice
    const [listing] = await data.sql<{ id: string }>(
      "select id::text as id from internal.listings where is_public and country_code = 'EC' order by id limit 1",
    );
    await page.goto(`${data.url}/es/properties/${listing!.id}`);
    const line = page.locator('exp-property-detail [part="privacy"]').first();
    await expect(line).toContainText('solo para responderte');
    await expect(line.getByRole('link', { name: 'Aviso de privacidad' })).toHaveAttribute('href', '/es/privacidad');
    expect(consoleErrors).toEqual([]);
  });

  test('she asks for her data, opens the link once, downloads it and erases it: nothing of her is left', async ({
    page,
    data,
    consoleErrors,
  }) => {
    // what she did: an inquiry on a listing's page, ticking one box of the optional ones (none is ticked
    // for her), with a request to visit; and a followed search
    const [listing] = await data.sql<{ id: string }>(
      "select id::text as id from internal.listings where is_public and country_code = 'EC' order by id limit 1",
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/es/properties/${listing!.id}`);
    const form = page.locator('exp-property-detail [part="inquiry-form"]').first();
    await form.getByRole('textbox', { name: 'Nombre' }).fill(HER.name);
    await form.getByRole('textbox', { name: 'Correo electrónico' }).fill(HER.email);
    await form.getByRole('textbox', { name: 'Teléfono (opcional)' }).fill(HER.phone);
    await form.getByRole('textbox', { name: 'Mensaje (opcional)' }).fill('Quisiera visitar la casa el sábado');
    const boxes = form.getByRole('group', { name: 'Opcional, cada una por separado' }).getByRole('checkbox');
    await expect(boxes).toHaveCount(2);
    for (const box of await boxes.all()) await expect(box).not.toBeChecked();
    await form.getByLabel('Envíame por correo inmuebles y novedades de eXp Realty Ecuador').check();
    await form.screenshot({ path: join(shots, 'inquiry-consents-390.png') });
    await form.getByRole('button', { name: 'Solicitar información' }).click();
    const lead = await until(
      async () =>
        (await data.sql<{ id: string }>('select id::text as id from public.inquiries where email = $1', [HER.email]))[0]
          ?.id,
    );
    expect(await data.sql('select purpose, lang from internal.consents where inquiry_id = $1::uuid', [lead])).toEqual([
      { purpose: 'marketing', lang: 'es' },
    ]);
    // the one-click link the CRM's mails carry (the webhook's withdraw_url): what she agreed to, and a button
    const [consent] = await data.sql<{ id: string }>(
      'select id::text as id from internal.consents where inquiry_id = $1::uuid',
      [lead],
    );
    const withdrawUrl = await withdrawLink(
      { query: (text, params) => data.sql(text, params ? [...params] : []) },
      consent!.id,
      data.url,
      'es',
    );
    await page.goto(withdrawUrl);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Retira tu consentimiento');
    await expect(page.locator('main')).toContainText(
      '“Envíame por correo inmuebles y novedades de eXp Realty Ecuador”',
    );
    await expect(page.getByRole('button', { name: 'Retirar mi consentimiento' })).toBeVisible();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(shots, 'consent-390.png'), fullPage: true });
    await data.sql(
      `insert into internal.visit_requests (inquiry_id, listing_id, recipient_email, mode, proposed, name, email, phone, lang)
       values ($1::uuid, $2::bigint, 'equipo@example.com', 'in_person', array[internal.now() + interval '4 days'], $3, $4, $5, 'es')`,
      [lead, listing!.id, HER.name, HER.email, HER.phone],
    );
    const followed = await fetch(`${data.url}/functions/v1/saved-searches`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        action: 'subscribe',
        email: HER.email,
        filters: { city: 'Cuenca' },
        frequency: 'weekly',
        lang: 'es',
        website: '',
      }),
    });
    expect(followed.status).toBe(200);

    await page.goto(`${data.url}/es/privacidad/mis-datos`);
    const before = new Set(readdirSync(data.outboxDir));
    // an address the browser takes but we cannot mail is said so, beside the field
    await page.getByLabel('Correo').fill('ines@localhost');
    await page.getByRole('button', { name: 'Envíame el enlace' }).click();
    await expect(page.getByRole('alert')).toHaveText('Escribe un correo válido.');
    await page.getByLabel('Correo').fill(HER.email);
    await page.getByRole('button', { name: 'Envíame el enlace' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Revisa tu correo');
    expect(await seriousAxeViolations(page)).toEqual([]);
    const mail = await until(async () => {
      await data.drainOutbox();
      const fresh = readdirSync(data.outboxDir).filter((f) => f.endsWith('.eml') && !before.has(f));
      const parsed = await Promise.all(fresh.map((f) => simpleParser(readFileSync(join(data.outboxDir, f)))));
      return parsed.find((m) => /mis-datos\?token=/.test(m.text ?? ''));
    });
    const link = /(http\S+\/es\/privacidad\/mis-datos\?token=[A-Za-z0-9_-]{43})/.exec(mail.text ?? '')?.[1] ?? '';
    expect(link).toBeTruthy();

    // the link: a button first (a mail scanner that opens it uses nothing), then everything
    await page.goto(link.replace(/^https?:\/\/[^/]+/, () => data.url));
    await page.getByRole('button', { name: 'Ver mis datos' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Lo que guardamos de ${HER.email}`);
    const main = page.locator('main');
    await expect(main).toContainText('Quisiera visitar la casa el sábado');
    await expect(main).toContainText('Visita solicitada');
    await expect(main).toContainText('Búsqueda guardada con alertas');
    await expect(main).toContainText(HER.phone);
    // what she consented to, in the words she read, and its withdrawal in one click
    await expect(main.getByRole('heading', { name: 'Lo que consentiste' })).toBeVisible();
    await expect(main).toContainText('“Envíame por correo inmuebles y novedades de eXp Realty Ecuador”');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(shots, 'my-data-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.screenshot({ path: join(shots, 'my-data-1366.png'), fullPage: true });
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 390, height: 844 });

    await page.getByRole('button', { name: 'Retirar este consentimiento' }).click();
    await expect(main.getByRole('status')).toHaveText('Retirado: ya no se enviará ni se hará nada más con él.');
    await expect(page.getByRole('button', { name: 'Retirar este consentimiento' })).toHaveCount(0);
    expect(await data.sql('select withdrawn_via from internal.consents where inquiry_id = $1::uuid', [lead])).toEqual([
      { withdrawn_via: 'my-data' },
    ]);

    // the link says so now, and offers nothing more to press
    const again = await (await fetch(withdrawUrl)).text();
    expect(again).toContain('Este consentimiento ya estaba retirado');
    expect(again).not.toContain('value="withdraw"');

    // the download: everything, as JSON
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descargar todo (JSON)' }).click(),
    ]);
    const json = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      inquiries: Array<{ id: string; visit: unknown }>;
      saved_searches: unknown[];
      consents: Array<{ purpose: string }>;
    };
    expect(json.consents.map((c) => c.purpose)).toEqual(['marketing']);
    expect(json.inquiries.map((i) => i.id)).toEqual([lead]);
    expect(json.inquiries[0]!.visit).toBeTruthy();
    expect(json.saved_searches).toHaveLength(1);

    // erasure needs the box ticked; then it is done
    await page.getByRole('button', { name: 'Eliminar mis datos' }).click();
    await expect(page.getByRole('alert')).toHaveText('Marca la casilla para confirmar.');
    await page.getByLabel('Entiendo: eliminar todo lo de esta dirección').check();
    await page.getByRole('button', { name: 'Eliminar mis datos' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Tus datos están eliminados');
    await expect(main).toContainText('Solicitudes: 1. Búsquedas guardadas: 1.');

    // the link is used up
    await page.goto(link.replace(/^https?:\/\/[^/]+/, () => data.url));
    await page.getByRole('button', { name: 'Ver mis datos' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Este enlace no es válido');
    // and nothing of her is left where leads, mails and alerts are kept
    for (const [table, needle] of [
      ['public.inquiries', HER.email],
      ['public.inquiries', HER.phone],
      ['internal.visit_requests', HER.name],
      ['internal.saved_searches', HER.email],
      ['internal.mail_outbox', HER.email],
      ['internal.mail_outbox', HER.name],
      ['internal.consents', HER.email],
    ] as const)
      expect(
        (
          await data.sql<{ n: number }>(`select count(*)::int as n from ${table} t where strpos(t::text, $1) > 0`, [
            needle,
          ])
        )[0]!.n,
        `${table} ${needle}`,
      ).toBe(0);
    // (the pages answer with the status of what happened: 400 for the refused address and the unticked box, 404 for the used link)
    expect(consoleErrors.filter((e) => !/status of (400|404) /.test(e))).toEqual([]);
  });
});
