/**
 * The sellers' page and <exp-home-valuation> (docs/valuation.md), as a seller uses them: a place
 * picked in the location box by keyboard, the area and the rooms, the estimate the function gives
 * for those facts (value, range, comparables linking to their pages), a field refused by name, the
 * agents who serve the place listed below, the lead sent to the agent who serves it with the
 * monthly report asked for (pending its confirmation), in Spanish too; axe finds nothing serious.
 */
import { resolve } from 'node:path';
import { expect, seriousAxeViolations, test } from './fixtures.ts';
import { formatPrice } from '../../core/protocol/format.ts';
import { parseEstimate } from '../../core/protocol/valuation.ts';

test('a seller on /sell: the estimate for their facts, its comparables, a refused field named, the lead to the agent of the area and the monthly report asked for', async ({
  page,
  data,
  consoleErrors,
}) => {
  await page.goto(`${data.url}/sell`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sell your home with eXp Realty Ecuador');
  const v = page.locator('exp-home-valuation');
  const box = v.getByRole('combobox', { name: 'Where is it?' });
  await box.focus();
  await page.keyboard.type('cumba', { delay: 30 });
  await expect(v.getByRole('listbox').getByRole('option').first()).toContainText('Cumbayá');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('Cumbayá');
  // a built area of 0 is refused by the form, by name
  await v.getByLabel('Built area (m²)').fill('0');
  await v.getByRole('button', { name: 'Estimate its price' }).click();
  await expect(v.locator('[part="field-error"]')).toHaveText('Please check this value.');
  await expect(v.getByLabel('Built area (m²)')).toBeFocused();
  await v.getByLabel('Built area (m²)').fill('250');
  await v.getByLabel(/^Bedrooms/).fill('3');
  await v.getByRole('button', { name: 'Estimate its price' }).click();

  const { data: answer } = await fetch(`${data.url}/rest/v1/rpc/estimate_value`, {
    method: 'POST',
    headers: { apikey: 'anon-key', 'content-type': 'application/json' },
    body: JSON.stringify({ facts: { property_type: 'house', place: 'cumbaya', area_m2: 250, bedrooms: 3 } }),
  }).then(async (r) => ({ data: await r.json() }));
  const e = parseEstimate(answer);
  await expect(v.locator('[part="value"]')).toHaveText(formatPrice(e.value));
  await expect(v.locator('[part="range"]')).toContainText(`between ${formatPrice(e.low)} and ${formatPrice(e.high)}`);
  await expect(v.locator('[part="comparable"]')).toHaveCount(e.comparables.length);
  await expect(v.locator('[part="comparable"] a').first()).toHaveAttribute(
    'href',
    new RegExp(`/properties/${e.comparables[0]?.id}-`),
  );
  await expect(v.locator('[part="note"]')).toContainText('not an appraisal');
  expect(await seriousAxeViolations(page)).toEqual([]);

  // below, the agents who serve the home's place (public.area_agents), and the way to all of them
  const area = (await fetch(`${data.url}/rest/v1/rpc/area_agents`, {
    method: 'POST',
    headers: { apikey: 'anon-key', 'content-type': 'application/json' },
    body: JSON.stringify({ place: e.place?.path }),
  }).then((r) => r.json())) as { place: { name: string }; agents: number[] };
  expect(area.agents.length).toBeGreaterThan(0);
  const directory = page.locator('exp-agent-directory');
  await expect(directory).toHaveAttribute('place', String(e.place?.path));
  await expect(directory.locator('[part="count"]')).toHaveText(
    new RegExp(`^${area.agents.length} agents? serves? ${area.place.name}$`),
  );
  await expect(directory.locator('[part="agent-card"]')).toHaveCount(area.agents.length);
  const [{ n: all } = { n: 0 }] = await data.sql<{ n: number }>(
    "select count(*)::int as n from public.agents where country_code = 'EC'",
  );
  await directory.locator('[part="all-agents"]').click();
  await expect(directory.locator('[part="agent-card"]')).toHaveCount(all);
  await expect(directory.locator('[part="count"]')).toHaveText(`${all} featured agents`);

  // the lead: to the agent who serves the place, the monthly report asked for too
  const email = `seller.${Date.now()}@example.org`;
  const lead = v.locator('[part="lead"]');
  await lead.getByLabel('Name', { exact: true }).fill('Lucía Vendedora');
  await lead.getByLabel('E-mail', { exact: true }).fill(email);
  await lead.getByLabel('Phone', { exact: true }).fill('+593 99 123 4567');
  await lead.getByLabel('When do you plan to sell?').selectOption('months6');
  await lead.getByLabel('E-mail me this estimate every month').check();
  // each consent a box of its own, none ticked for her (docs/privacy.md "Consents")
  await expect(lead.getByLabel('E-mail me homes and news from eXp Realty Ecuador')).not.toBeChecked();
  await lead.getByLabel('Other eXp Realty Ecuador agents may contact me about homes that suit me').check();
  await lead.screenshot({ path: resolve(import.meta.dirname, '../../.cache/screenshots/valuation/lead-consents.png') });
  await lead.getByRole('button', { name: 'Request a valuation' }).click();
  await expect(lead.getByRole('heading', { name: 'Request sent' })).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await data.sql<Record<string, unknown>>(
            "select recipient_kind as kind, seller->>'timeline' as timeline, (seller->'estimate'->>'value')::numeric::int as value from public.inquiries where email = $1",
            [email],
          )
        )[0],
    )
    .toEqual({ kind: 'area_agent', timeline: 'months6', value: e.value });
  await expect
    .poll(
      async () =>
        (
          await data.sql<Record<string, unknown>>(
            'select status, frequency from internal.saved_searches where email = $1 and home is not null',
            [email],
          )
        )[0],
    )
    .toEqual({ status: 'pending', frequency: 'monthly' });
  // kept, each with what it came with: the report with its subscription, the other with the lead
  expect(
    await data.sql(
      'select purpose, inquiry_id is not null as with_lead, search_id is not null as with_report from internal.consents where email = $1 order by purpose',
      [email],
    ),
  ).toEqual([
    { purpose: 'home_report', with_lead: false, with_report: true },
    { purpose: 'other_agents', with_lead: true, with_report: false },
  ]);

  // in Spanish, as the page switches
  await page.evaluate(() => document.documentElement.setAttribute('lang', 'es'));
  await expect(v.locator('[part="note"]')).toContainText('no un avalúo');
  expect(consoleErrors).toEqual([]);
});

test('a pin dropped on the map: the estimate is for that point', async ({ page, data }) => {
  await page.goto(`${data.url}/sell`);
  const v = page.locator('exp-home-valuation');
  await v.getByRole('button', { name: 'Or drop a pin on a map' }).click();
  const map = v.locator('[part="pin-map"]');
  await expect(map).toHaveAttribute('data-status', 'ready');
  // the tiles' credit, as on every map (OpenStreetMap's: no tile-attribution here)
  await expect(v.locator('[part="map-credit"]')).toHaveText('© OpenStreetMap contributors');
  const box = (await map.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2 + 20, box.y + box.height / 2);
  await expect(v.getByRole('combobox', { name: 'Where is it?' })).toHaveValue(/^Pin at -0\.1\d+, -78\.4\d+$/);
  await v.getByLabel('Built area (m²)').fill('120');
  await v.getByLabel('Type').selectOption('apartment');
  const asked = page.waitForRequest((r) => r.url().endsWith('/rest/v1/rpc/estimate_value'));
  await v.getByRole('button', { name: 'Estimate its price' }).click();
  const facts = JSON.parse((await asked).postData() ?? '{}').facts as Record<string, unknown>;
  expect(facts).toMatchObject({ property_type: 'apartment', area_m2: 120 });
  expect(Number(facts.lat)).toBeCloseTo(-0.18, 1);
  expect(Number(facts.lng)).toBeCloseTo(-78.47, 1);
  expect(facts.place).toBeUndefined();
  await expect(v.locator('[part="value"]')).toHaveText(/^\$[\d,]+$/);
});
