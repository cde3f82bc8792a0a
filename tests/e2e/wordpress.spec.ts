/**
 * The WordPress plugin (integrations/wordpress; docs/leads.md, "WordPress") in a real WordPress 6.5
 * from npm (WordPress Playground, PHP in WebAssembly: tests/support/wordpress.ts), set up as an
 * agent would: the data URL, her colour, Spanish and her agent id. A page with shortcodes and one
 * with a block, read as a crawler reads them (the markup, escaped, the script once), then in the
 * browser: the search shows its results, a listing opens, and its inquiry reaches our server as the
 * agent's lead, with the WordPress page as its source.
 */
import { resolve } from 'node:path';
import { expect, fmt, search, test } from './fixtures.ts';
import { startWordPress, type WordPress } from '../support/wordpress.ts';

const root = resolve(import.meta.dirname, '../..');
const php = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

test.describe.configure({ mode: 'serial', timeout: 120_000 });

let wp: WordPress;
let owner: { id: string; email: string };
let other: { id: string; email: string };

test.beforeAll(async ({ data }) => {
  test.setTimeout(180_000);
  [owner, other] = (await data.sql<{ id: string; email: string }>(
    "select id::text as id, email from public.agents where country_code = 'EC' and email is not null order by id desc limit 2",
  )) as [typeof owner, typeof owner];
  const settings = `array('api_url' => ${php(data.url)}, 'brand' => '#0f5e5a', 'lang' => 'es', 'lead_agent' => ${php(owner.id)})`;
  const shortcodes =
    '[exp_property_search city="Quito" bogus="1"]\n\n[exp_inquiry_form heading=\'Casa "Los Álamos" & jardín\' listing-id="1 onmouseover=alert(1)"]\n\n[exp_home_valuation place="cumbaya" property-type="apartment"]';
  const block =
    '<!-- wp:exp-ecuador/inquiry-form {"heading":"Escríbanos hoy"} /-->\n\n<!-- wp:exp-ecuador/property-search {"city":"Cuenca"} /-->';
  // an author (not an administrator) names another backend and another agent: visitors' details must not follow
  const forged =
    '[exp_inquiry_form api_url="https://attacker.example" api_key="stolen" lead_agent_id="7" heading="Contacto"]\n\n<!-- wp:exp-ecuador/inquiry-form {"api-url":"https://attacker.example","lead-agent-id":"7","heading":"Bloque"} /-->';
  // an administrator may: she can change the settings anyway
  const chosen = `[exp_inquiry_form lead_agent_id="${other.id}" heading="Otra agente"]`;
  // a block's attributes are JSON: they may carry markup, which must come out as text
  // a market report for an agent's area (docs/market.md), and its follow as her lead
  const market = '<!-- wp:exp-ecuador/market-report {"place":"quito","type-group":"house"} /-->';
  const hostileBlock =
    '<!-- wp:exp-ecuador/inquiry-form {"heading":"\\u003c/exp-inquiry-form\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"} /-->';
  // synced patterns (wp_block posts) are rendered inside the post that embeds them: each is its own author's
  const authorPattern =
    '<!-- wp:exp-ecuador/inquiry-form {"api-url":"https://attacker.example","lead-agent-id":"7","heading":"Bloque de autora"} /-->\n\n<!-- wp:shortcode -->\n[exp_inquiry_form api_url="https://attacker.example" lead_agent_id="7" heading="Atajo de autora"]\n<!-- /wp:shortcode -->\n\n<!-- wp:paragraph -->\n<p>[[exp_inquiry_form lead_agent_id="7" heading="Texto"]]</p>\n<!-- /wp:paragraph -->';
  const adminPattern = `<!-- wp:exp-ecuador/inquiry-form {"api-url":"https://datos.example","lead-agent-id":"${other.id}","heading":"Bloque de administradora"} /-->\n\n<!-- wp:shortcode -->\n[exp_inquiry_form lead_agent_id="${other.id}" heading="Atajo de administradora"]\n<!-- /wp:shortcode -->`;
  const after = `<!-- wp:exp-ecuador/inquiry-form {"lead-agent-id":"${other.id}","heading":"Después"} /-->`;
  wp = await startWordPress({
    plugin: resolve(root, 'dist/wordpress/exp-ecuador'),
    steps: [
      { step: 'activatePlugin', pluginPath: 'exp-ecuador/exp-ecuador.php' },
      {
        step: 'runPHP',
        code: `<?php require '/wordpress/wp-load.php'; wp_set_current_user(1);
update_option('exp_ecuador_settings', ${settings});
wp_insert_post(array('post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Buscar', 'post_name' => 'buscar', 'post_content' => wp_slash(${php(shortcodes)})));
wp_insert_post(array('post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Contacto', 'post_name' => 'contacto', 'post_content' => wp_slash(${php(block)})));
wp_insert_post(array('post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Mercado', 'post_name' => 'mercado', 'post_content' => wp_slash(${php(market)})));
wp_insert_post(array('post_type' => 'page', 'post_status' => 'publish', 'post_title' => 'Hostil', 'post_name' => 'hostil', 'post_content' => wp_slash(${php(hostileBlock)})));
$author = wp_insert_user(array('user_login' => 'autora', 'user_pass' => 'autora-password', 'user_email' => 'autora@example.org', 'role' => 'author'));
wp_insert_post(array('post_type' => 'post', 'post_status' => 'publish', 'post_author' => $author, 'post_title' => 'Contacto falso', 'post_name' => 'falso', 'post_content' => wp_slash(${php(forged)})));
wp_insert_post(array('post_type' => 'post', 'post_status' => 'publish', 'post_author' => 1, 'post_title' => 'Otra agente', 'post_name' => 'otra', 'post_content' => wp_slash(${php(chosen)})));
$pattern = function ($author, $title, $content) { return '<!-- wp:block {"ref":' . wp_insert_post(array('post_type' => 'wp_block', 'post_status' => 'publish', 'post_author' => $author, 'post_title' => $title, 'post_content' => wp_slash($content))) . '} /-->'; };
$publish = function ($author, $name, $content) { wp_insert_post(array('post_type' => 'post', 'post_status' => 'publish', 'post_author' => $author, 'post_title' => $name, 'post_name' => $name, 'post_content' => wp_slash($content))); };
$ofAuthor = $pattern($author, 'Patrón de autora', ${php(authorPattern)});
$ofAdmin = $pattern(1, 'Patrón de administradora', ${php(adminPattern)});
$publish(1, 'patron-de-autora', $ofAuthor);
$publish($author, 'patron-en-autora', $ofAdmin);
$publish(1, 'patron-de-administradora', $ofAdmin);
$publish(1, 'patron-anidado', $pattern(1, 'Patrón anidado', $ofAuthor . "\n\n" . ${php(after)}));`,
      },
    ],
  });
});

test.afterAll(async () => {
  await wp?.stop();
});

test('the shortcodes, as a crawler reads the page: each element with the settings and its own attributes, escaped; the script once', async ({
  request,
  data,
}) => {
  const html = await (await request.get(`${wp.url}/?pagename=buscar`)).text();
  expect(html).toContain(
    `<exp-property-search api-url="${data.url}" lang="es" lead-agent-id="${owner.id}" city="Quito" style="--exp-color-primary:#0f5e5a"></exp-property-search>`,
  );
  // an attribute the element does not take is left out, and said so
  expect(html).toContain('<!-- exp-ecuador: exp-property-search takes no bogus -->');
  // the sellers' valuation, for an agent's own area: the seller's lead is the agent's
  expect(html).toContain(
    `<exp-home-valuation api-url="${data.url}" lang="es" lead-agent-id="${owner.id}" place="cumbaya" property-type="apartment" style="--exp-color-primary:#0f5e5a"></exp-home-valuation>`,
  );
  expect(html).not.toContain('bogus="1"');
  // what a shortcode says is an attribute's value, never markup
  expect(html).toContain('<exp-inquiry-form api-url=');
  expect(html).toContain('heading="Casa &quot;Los Álamos&quot; &amp; jardín" listing-id="1 onmouseover=alert(1)"');
  const hostile = await (await request.get(`${wp.url}/?pagename=hostil`)).text();
  expect(hostile).toContain('heading="&lt;/exp-inquiry-form&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
  expect(hostile).not.toContain('<script>alert(1)');
  const scripts = html.match(/<script[^>]*src="[^"]*\/widgets\/exp-widgets\.js[^"]*"[^>]*>/g) ?? [];
  expect(scripts).toHaveLength(1);
  expect(scripts[0]).toContain('type="module"');
  // the blocks: the same elements; the search as a wide block (a theme's content column is narrow); two elements, one script
  const blocks = await (await request.get(`${wp.url}/?pagename=contacto`)).text();
  expect(blocks).toMatch(
    /<div class="wp-block-exp-ecuador-inquiry-form"><exp-inquiry-form api-url="[^"]+" lang="es" lead-agent-id="\d+" heading="Escríbanos hoy" style="--exp-color-primary:#0f5e5a"><\/exp-inquiry-form><\/div>/,
  );
  expect(blocks).toMatch(
    /<div class="alignwide wp-block-exp-ecuador-property-search"><exp-property-search [^>]*city="Cuenca"/,
  );
  expect(blocks.match(/\/widgets\/exp-widgets\.js/g)).toHaveLength(1);
  // a page without an element loads no script
  expect(await (await request.get(`${wp.url}/?page_id=2`)).text()).not.toContain('exp-widgets.js');
});

test("an author cannot send visitors' details elsewhere: the backend and the lead's owner come from the settings; an administrator may choose another agent", async ({
  request,
  data,
}) => {
  const forged = await (await request.get(`${wp.url}/?name=falso`)).text();
  expect(forged).not.toContain('attacker.example');
  expect(forged).not.toContain('stolen');
  expect(forged).not.toContain('lead-agent-id="7"');
  const elements = forged.match(/<exp-inquiry-form [^>]*>/g) ?? [];
  expect(elements).toHaveLength(2);
  for (const el of elements) {
    expect(el).toContain(`api-url="${data.url}"`);
    expect(el).toContain(`lead-agent-id="${owner.id}"`);
  }
  expect(forged).toContain(
    '<!-- exp-ecuador: api-url, api-key, lead-agent-id come from the settings page (Settings > eXp Ecuador) -->',
  );
  expect(forged).toContain(
    '<!-- exp-ecuador: api-url, lead-agent-id come from the settings page (Settings > eXp Ecuador) -->',
  );
  const chosen = await (await request.get(`${wp.url}/?name=otra`)).text();
  expect(chosen).toContain(
    `<exp-inquiry-form api-url="${data.url}" lang="es" lead-agent-id="${other.id}" heading="Otra agente"`,
  );
});

test("a synced pattern is its own author's: an author's in an administrator's post, or an administrator's in an author's, gets the settings' backend and agent; an administrator's in an administrator's post keeps its own", async ({
  request,
  data,
}) => {
  // each inquiry form of a post: its heading, backend and lead agent
  const forms = async (name: string) => {
    const html = await (await request.get(`${wp.url}/?name=${name}`)).text();
    const elements = (html.match(/<exp-inquiry-form [^>]*>/g) ?? []).map((el) => {
      const attr = (n: string) => el.match(new RegExp(` ${n}="([^"]*)"`))?.[1];
      return { heading: attr('heading'), api: attr('api-url'), agent: attr('lead-agent-id') };
    });
    return { html, elements };
  };
  const settings = { api: data.url, agent: owner.id };
  // an author's pattern in an administrator's post: its block and its shortcode alike
  const ofAuthor = await forms('patron-de-autora');
  expect(ofAuthor.elements).toEqual([
    { heading: 'Bloque de autora', ...settings },
    { heading: 'Atajo de autora', ...settings },
  ]);
  expect(ofAuthor.html).not.toContain('attacker.example');
  expect(ofAuthor.html).toContain(
    '<!-- exp-ecuador: api-url, lead-agent-id come from the settings page (Settings > eXp Ecuador) -->',
  );
  // an escaped shortcode stays text, as in a post
  expect(ofAuthor.html).toContain('[exp_inquiry_form lead_agent_id=');
  // an administrator's pattern in an author's post: the least trusted author wins
  expect((await forms('patron-en-autora')).elements).toEqual([
    { heading: 'Bloque de administradora', ...settings },
    { heading: 'Atajo de administradora', ...settings },
  ]);
  // an administrator's pattern in an administrator's post: its own backend and agent
  expect((await forms('patron-de-administradora')).elements).toEqual([
    { heading: 'Bloque de administradora', api: 'https://datos.example', agent: other.id },
    { heading: 'Atajo de administradora', api: data.url, agent: other.id },
  ]);
  // an author's pattern inside an administrator's: the author's elements get the settings', the administrator's after it its own
  expect((await forms('patron-anidado')).elements).toEqual([
    { heading: 'Bloque de autora', ...settings },
    { heading: 'Atajo de autora', ...settings },
    { heading: 'Después', api: data.url, agent: other.id },
  ]);
});

test("the search in WordPress: its results for Quito, a listing opened, the inquiry sent as the agent's lead from the WordPress page", async ({
  page,
  data,
}) => {
  await page.goto(`${wp.url}/?pagename=buscar`);
  const s = search(page);
  await expect(s.heading).toHaveText(/^[\d.,]+ propiedades/);
  await expect(s.cards.first()).toBeVisible();
  const [{ n } = { n: 0 }] = await data.sql<{ n: number }>(
    "select count(*)::int as n from public.listings where city = 'Quito'",
  );
  expect(Number(n)).toBeGreaterThan(0);
  // the brand colour reaches the element
  expect(await s.el.evaluate((el) => getComputedStyle(el).getPropertyValue('--exp-color-primary').trim())).toBe(
    '#0f5e5a',
  );
  await s.cards.first().locator('.exp-card-link').click();
  await expect(s.dialog).toBeVisible();
  const form = s.dialog.locator('[part="inquiry-form"]');
  await form.getByLabel('Nombre').fill('Gabriela WordPress');
  await form.getByLabel('Correo electrónico').fill('gabriela.wp@example.org');
  await form.getByRole('button', { name: 'Solicitar información' }).click();
  await expect(s.el.getByText('¡Solicitud enviada!').first()).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await data.sql<Record<string, unknown>>(
            "select recipient_kind, lead_agent_id::text as lead, recipient_email, origin, page_url, element from public.inquiries where email = 'gabriela.wp@example.org'",
          )
        )[0],
    )
    .toEqual({
      recipient_kind: 'lead_agent',
      lead: owner.id,
      recipient_email: owner.email,
      origin: wp.url,
      page_url: `${wp.url}/`,
      element: 'exp-property-search',
    });
});

test("the block: the inquiry form with its heading, sent as the agent's lead", async ({ page, data }) => {
  await page.goto(`${wp.url}/?pagename=contacto`);
  const form = page.locator('exp-inquiry-form');
  await expect(form.getByRole('heading', { name: 'Escríbanos hoy' })).toBeVisible();
  await form.getByLabel('Nombre').fill('Mateo Bloque');
  await form.getByLabel('Correo electrónico').fill('mateo.bloque@example.org');
  await form.getByRole('button', { name: 'Solicitar información' }).click();
  await expect(form.getByText('¡Solicitud enviada!')).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await data.sql<Record<string, unknown>>(
            "select recipient_kind, lead_agent_id::text as lead, origin, element from public.inquiries where email = 'mateo.bloque@example.org'",
          )
        )[0],
    )
    .toEqual({ recipient_kind: 'lead_agent', lead: owner.id, origin: wp.url, element: 'exp-inquiry-form' });
});

test("the market report block: Quito's houses as the index holds them, in the site's Spanish; a follow is the agent's lead", async ({
  page,
  data,
}) => {
  await page.goto(`${wp.url}/?pagename=mercado`);
  const [row] = await data.sql<{ median: string; listings: number }>(
    "select median::text, listings from internal.market_index where path = 'quito' and type_group = 'house' and month = (internal.this_month() - interval '1 month')::date",
  );
  const report = page.locator('exp-market-report');
  await expect(report.locator('[part="figure"]')).toHaveText(`$${fmt(Math.round(Number(row?.median)))}/m²`);
  await expect(report).toContainText(`De ${fmt(Number(row?.listings))} anuncios`);
  await report.locator('[part="follow-button"]').click();
  const dialog = report.locator('dialog[open]');
  await expect(dialog).toContainText('El informe de mercado de Quito (Casas)');
  const email = `wp.follow.${Date.now()}@example.org`;
  await dialog.getByLabel('Correo electrónico', { exact: true }).fill(email);
  await dialog.getByRole('button', { name: 'Seguir este mercado' }).click();
  await expect(dialog.getByRole('heading', { name: 'Revisa tu correo' })).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await data.sql<Record<string, unknown>>(
            'select frequency, market, lead_agent_id::text as lead, origin from internal.saved_searches where email = $1',
            [email],
          )
        )[0],
    )
    .toEqual({
      frequency: 'monthly',
      market: { place: 'quito', type_group: 'house', name: 'Quito' },
      lead: owner.id,
      origin: wp.url,
    });
});

test('the settings page: each setting checked as it is saved, and what is saved is what the elements get', async ({
  page,
  request,
}) => {
  // an admin page takes PHP in WebAssembly 1 to 2.5 s alone, a save two of them (the post and the
  // page it redirects to: up to 5 s); a loaded machine takes three times that
  const ADMIN = { timeout: 30_000 };
  // Playground's administrator (admin / password)
  await page.goto(`${wp.url}/wp-login.php`);
  await page.locator('#user_login').fill('admin');
  await page.locator('#user_pass').fill('password');
  await page.locator('#wp-submit').click();
  await expect(page).toHaveURL(/wp-admin/, ADMIN);
  await page.goto(`${wp.url}/wp-admin/options-general.php?page=exp-ecuador`);
  await expect(page.getByRole('heading', { name: 'eXp Realty Ecuador' })).toBeVisible(ADMIN);
  await page.getByLabel('Brand colour').fill('red; background:url(x)');
  await page.getByLabel('Lead agent').fill('maria@agente.example');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('The brand colour must be a hex colour such as #0f5e5a.')).toBeVisible(ADMIN);
  await expect(page.getByText("The lead agent is an agent's id (digits), as the brokerage gives it.")).toBeVisible();
  // refused values are not kept
  const refused = await (await request.get(`${wp.url}/?pagename=buscar`)).text();
  expect(refused).not.toContain('background:url');
  expect(refused).not.toContain('lead-agent-id=');
  await page.getByLabel('Brand colour').fill('#7a1f5c');
  await page.getByLabel('Lead agent').fill(owner.id);
  await page.getByLabel('Language').selectOption('en');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible(ADMIN);
  const saved = await (await request.get(`${wp.url}/?pagename=buscar`)).text();
  expect(saved).toMatch(
    new RegExp(
      `<exp-property-search api-url="[^"]+" lang="en" lead-agent-id="${owner.id}" city="Quito" style="--exp-color-primary:#7a1f5c">`,
    ),
  );
});
