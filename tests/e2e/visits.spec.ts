/**
 * Visits as people do them (docs/visits.md): a visitor in Madrid (the browser's time zone
 * Europe/Madrid) asks for three video times on a listing's page, by keyboard, seeing Ecuador's time
 * beside theirs; the agent opens the mail's second link and confirms it in one click with the video
 * call's link; the visitor's mail carries an invitation that Mozilla's ical.js reads with the right
 * start in UTC and the agent as organiser; the first time's link can no longer confirm; the visitor
 * cancels and both get METHOD:CANCEL. Axe finds nothing serious; at 390 and 320 px nothing is cut off.
 * (The map popup's "Schedule a visit": tests/browser/property-map-pins.test.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ICAL from 'ical.js';
import { simpleParser, type ParsedMail } from 'mailparser';
import {
  ACTIVE,
  cardIds,
  expect,
  fmt,
  openSearch,
  screenshotDir,
  seriousAxeViolations,
  sideways,
  test,
} from './fixtures.ts';
import { listingPath } from '../../core/routes.ts';
import { until } from '../support/until.ts';

type Row = Record<string, unknown>;

const shots = screenshotDir('visits');

/** The mails the server wrote, parsed. */
async function mails(dir: string): Promise<ParsedMail[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  return Promise.all(files.map((f) => simpleParser(readFileSync(join(dir, f)))));
}
const to = (m: ParsedMail) =>
  (Array.isArray(m.to) ? m.to.map((a) => a.text).join(',') : (m.to?.text ?? '')).toLowerCase();
const path = (m: ParsedMail, kind: string) =>
  [...(m.text ?? '').matchAll(new RegExp(`https?://[^/\\s]+((?:/es)?/visits/${kind}\\?token=[\\w-]{43})`, 'g'))].map(
    (x) => x[1] as string,
  );
const calendar = (m: ParsedMail) => {
  const part = m.attachments.find((a) => /^text\/calendar/i.test(a.contentType));
  const root = new ICAL.Component(ICAL.parse(String(part?.content.toString('utf8'))));
  return {
    method: String(root.getFirstPropertyValue('method')),
    event: new ICAL.Event(root.getFirstSubcomponent('vevent') as ICAL.Component),
  };
};

test.describe('visits', () => {
  test.use({ timezoneId: 'Europe/Madrid' });

  test('a visitor in Madrid asks for three video times; the agent confirms one in a click; the invitation reads right; the visitor cancels and both hear it', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const [listing] = await data.sql<Row & { id: string; title: string; email: string }>(
      `select l.id::text as id, l.title, a.email from internal.listings l join public.agents a on a.id = l.agent_id
        where l.status = '1' and l.country_code = 'EC' and a.email is not null order by l.id limit 1`,
    );
    const email = `madrid.e2e.${Date.now()}@example.org`;
    await page.goto(`${data.url}${listingPath(String(listing?.id), listing?.title, 'en')}`);
    const visit = page.locator('exp-property-detail [part="visit"]');
    await visit.getByRole('button', { name: 'Choose times' }).click();
    await expect(visit.getByText('Times in your time zone (Europe/Madrid)')).toBeVisible();
    // by keyboard: the video call, then three times over two days
    await visit.getByRole('radio', { name: 'Video call' }).focus();
    await page.keyboard.press('Space');
    await expect(visit.getByRole('radio', { name: 'Video call' })).toBeChecked();
    const times = visit.locator('[part~="visit-time"]');
    await expect(times.first()).toBeVisible();
    for (const [day, slot] of [
      [1, 0],
      [1, 3],
      [2, 1],
    ] as const) {
      await visit.locator('[part="visit-days"] button').nth(day).focus();
      await page.keyboard.press('Enter');
      const button = times.nth(slot);
      await button.focus();
      await page.keyboard.press('Enter');
      await expect(button).toHaveAttribute('aria-pressed', 'true');
    }
    // the run is in June (tests/support/suite-clock.mjs): Madrid, on summer time, is seven hours ahead
    // of Ecuador; each time chosen says both, Ecuador's with its own day when that is another (an
    // afternoon there is past midnight in Madrid)
    const chosen = await visit.locator('[part="visit-chosen"] li > span').allInnerTexts();
    expect(chosen).toHaveLength(3);
    for (const label of chosen) {
      const [, madridDay, madrid, ecuadorDay, ecuador] =
        /^(\w+ \d+ \w+) at (\d\d):\d\d \((?:(\w+ \d+ \w+) at )?(\d\d):\d\d in Ecuador\)$/.exec(
          label.replace(/\s+/g, ' '),
        ) ?? [];
      expect(madrid, label).toBeTruthy();
      expect((Number(madrid) - Number(ecuador) + 24) % 24, label).toBe(7);
      // the day is said only when it is not Madrid's
      if (ecuadorDay) expect(ecuadorDay).not.toBe(madridDay);
      expect(Boolean(ecuadorDay), label).toBe(Number(madrid) < 7);
    }
    // a fourth cannot be chosen
    await expect(visit.getByText('You have chosen 3 times')).toBeVisible();
    await expect(times.nth(5)).toBeDisabled();
    expect(await seriousAxeViolations(page, 'exp-property-detail')).toEqual([]);
    await visit.getByLabel('Name').fill('Lucía Viajera');
    await visit.getByLabel('E-mail', { exact: true }).fill(email);
    await visit.getByRole('button', { name: 'Request the visit' }).click();
    await expect(visit.getByRole('heading', { name: 'Visit requested' })).toBeVisible();
    await expect(visit.locator('[part="visit-sent"] li')).toHaveCount(3);
    const [request] = await data.sql<{ id: string; proposed: string[]; time_zone: string; mode: string }>(
      "select id::text as id, array(select to_json(p)#>>'{}' from unnest(proposed) p) as proposed, time_zone, mode from internal.visit_requests where email = $1",
      [email],
    );
    expect(request).toMatchObject({ time_zone: 'Europe/Madrid', mode: 'video' });
    const proposed = (request?.proposed ?? []).map((t) => new Date(t).toISOString());
    expect(proposed).toHaveLength(3);

    // the agent's mail: a link per time; the second one, opened and confirmed with one click
    await data.drainOutbox();
    const agentMail = await until(async () =>
      (await mails(data.outboxDir)).find(
        (m) =>
          to(m).includes(String(listing?.email).toLowerCase()) &&
          m.subject?.startsWith('Solicitud de visita') &&
          m.text?.includes(email),
      ),
    );
    const confirms = path(agentMail, 'confirm');
    expect(confirms).toHaveLength(3);
    await page.goto(`${data.url}${confirms[1]}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirmar la visita');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByLabel('Enlace de la videollamada').fill('https://meet.example.org/lucia');
    await page.getByRole('button', { name: /^Confirmar / }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('La visita está confirmada');
    // the first time's link can no longer confirm
    await page.goto(`${data.url}${confirms[0]}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Esta visita ya está confirmada');

    // the visitor's mail: the invitation, read by a real calendar parser
    await data.drainOutbox();
    const confirmed = await until(async () =>
      (await mails(data.outboxDir)).find(
        (m) => to(m).includes(email) && m.subject?.startsWith('Your visit is confirmed'),
      ),
    );
    const invite = calendar(confirmed);
    expect(invite.method).toBe('REQUEST');
    expect(invite.event.startDate.toJSDate().toISOString()).toBe(proposed[1]);
    expect(String(invite.event.organizer).toLowerCase()).toBe(`mailto:${String(listing?.email).toLowerCase()}`);
    expect(invite.event.location).toBe('https://meet.example.org/lucia');

    // the visitor cancels: both get the cancellation of the same event
    const [cancel] = path(confirmed, 'cancel');
    await page.goto(`${data.url}${cancel}`);
    await page.getByRole('button', { name: 'Cancel the visit' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The visit is cancelled');
    await data.drainOutbox();
    for (const who of [email, String(listing?.email).toLowerCase()]) {
      const mail = await until(async () =>
        (await mails(data.outboxDir)).find(
          (m) => to(m).includes(who) && /cancel/i.test(m.subject ?? '') && (who === email || m.text?.includes(email)),
        ),
      );
      const c = calendar(mail);
      expect(c.method).toBe('CANCEL');
      expect(c.event.uid).toBe(invite.event.uid);
    }
    expect(consoleErrors).toEqual([]);
  });

  for (const width of [390, 320]) {
    test(`on a phone at ${width} px, in Spanish: the times and the form fit, axe finds nothing serious`, async ({
      page,
      data,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const [listing] = await data.sql<Row & { id: string; title: string }>(
        "select id::text as id, title from public.listings where status = '1' and agent_id is not null order by id limit 1",
      );
      await page.goto(`${data.url}${listingPath(String(listing?.id), listing?.title, 'es')}#visit`);
      const visit = page.locator('exp-property-detail [part="visit"]');
      await expect(visit.locator('[part~="visit-time"]').first()).toBeVisible();
      await expect(visit.getByText('Horas en tu zona horaria (Europe/Madrid)')).toBeVisible();
      await visit.locator('[part~="visit-time"]').first().click();
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      const box = await visit.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      expect(await seriousAxeViolations(page, 'exp-property-detail')).toEqual([]);
      await visit.screenshot({ path: resolve(shots, `visit-es-${width}.png`) });
    });
  }

  test('open houses of the seed: "Open house this week" under More filters finds those the database says, each card says its next one; the listing page lists them with "Add to calendar" and an Event', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const s = await openSearch(page, data.url);
    const more = s.el.locator('[part="more-filters"]');
    if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
    await s.el.getByLabel('Open house this week').check();
    await s.el.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/openHouse=true/);
    const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings l where ${ACTIVE} and exists (select 1 from internal.open_houses o where o.listing_id = l.id and o.ends_at > internal.now() and o.starts_at < internal.now() + interval '7 days')`,
    );
    expect(n).toBeGreaterThan(5);
    await expect(s.heading).toHaveText(`${fmt(n)} properties`);
    await expect(s.el.locator('[part="chip"]', { hasText: 'Open house this week' })).toBeVisible();
    // each card: "Open house" and its next one, as the database has it (Ecuador's time)
    const ids = await cardIds(page);
    const first = await data.sql<{ id: number; starts: string; ends: string }>(
      `select distinct on (listing_id) listing_id as id, to_json(starts_at)#>>'{}' as starts, to_json(ends_at)#>>'{}' as ends from internal.open_houses
        where listing_id = any($1::bigint[]) and ends_at > internal.now() order by listing_id, starts_at`,
      [ids],
    );
    expect(first).toHaveLength(ids.length);
    const when = (at: string) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'America/Guayaquil',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(at));
    const card = s.cards.first();
    const one = first.find((r) => r.id === ids[0]);
    await expect(card.locator('[part="open-house-badge"]')).toContainText(`Open house`);
    await expect(card.locator('[part="open-house-badge"]')).toContainText(
      `${when(String(one?.starts))}–${when(String(one?.ends))}`,
    );
    expect(consoleErrors).toEqual([]);

    // its page: each open house, a calendar file for each, an Event for each; axe finds nothing serious
    const [listing] = await data.sql<Row & { id: string; title: string; n: number }>(
      `select l.id::text as id, l.title, (select count(*)::int from internal.open_houses o where o.listing_id = l.id and o.ends_at > internal.now()) as n from internal.listings l where l.id = $1`,
      [ids[0]],
    );
    await page.goto(`${data.url}${listingPath(String(listing?.id), listing?.title, 'es')}`);
    const detail = page.locator('exp-property-detail');
    await expect(detail.locator('[part="open-house"]')).toHaveCount(Number(listing?.n));
    await expect(detail.locator('[part="open-houses"] h2')).toHaveText('Casas abiertas');
    const href = await detail.locator('[part="open-house"] a[download]').first().getAttribute('href');
    const file = await page.request.get(new URL(String(href), data.url).href);
    expect(file.headers()['content-type']).toMatch(/^text\/calendar/);
    const ics = new ICAL.Component(ICAL.parse(await file.text()));
    expect(
      new ICAL.Event(ics.getFirstSubcomponent('vevent') as ICAL.Component).startDate.toJSDate().toISOString(),
    ).toBe(new Date(String(one?.starts)).toISOString());
    const events = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) =>
        scripts
          .map((x) => JSON.parse(x.textContent ?? 'null') as { '@type': string })
          .filter((x) => x['@type'] === 'Event'),
      );
    expect(events).toHaveLength(Number(listing?.n));
    expect(await seriousAxeViolations(page, 'exp-property-detail')).toEqual([]);
  });
});
