/**
 * New developments (docs/projects.md) as a crawler and a visitor without JavaScript read them: the
 * list and each project's page in both languages, their counts and unit tables as SQL has them
 * (written apart here), the payment plan of a picked unit and lender, what a search engine reads
 * (JSON-LD, the sitemap), and what the database refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowDate } from '../../core/clock.ts';
import { formatAmount, formatPrice } from '../../core/protocol/format.ts';
import { paymentPlan } from '../../core/protocol/payment-plan.ts';
import { SITE } from '../../core/site.ts';
import { parseHtml } from '../support/crawled-pages.ts';
import { patientFetch } from '../support/patient-fetch.ts';
import { startTestServer, type TestServer } from '../support/servers.ts';

async function page(url: string): Promise<{ status: number; doc: Document; html: string }> {
  const res = await patientFetch(url, { redirect: 'manual', headers: { 'User-Agent': 'Googlebot/2.1' } });
  const html = await res.text();
  return { status: res.status, html, doc: parseHtml(html) };
}

const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** the projects the public sees, counted apart from the view: active, with a type of unit */
const LISTED = `select p.slug from internal.projects p where p.status = 'active'
  and exists (select 1 from internal.project_unit_types t where t.project_id = p.id) order by p.slug`;

describe('new developments', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('postgres');
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('/projects and /es/proyectos list every active project with a unit type, as SQL counts them, each linking to its page', async () => {
    const slugs = (await server.sql<{ slug: string }>(LISTED)).map((r) => r.slug);
    expect(slugs.length).toBeGreaterThanOrEqual(8);
    for (const [path, lang] of [
      ['/projects', 'en'],
      ['/es/proyectos', 'es'],
    ] as const) {
      const { status, doc } = await page(`${server.url}${path}`);
      expect(status, path).toBe(200);
      expect(doc.documentElement.lang).toBe(lang);
      const cards = [...doc.querySelectorAll('[data-project]')].map((c) => c.getAttribute('data-project'));
      expect([...cards].sort()).toEqual(slugs);
      expect(text(doc.querySelector('[data-project-count]'))).toBe(
        lang === 'es' ? `${slugs.length} proyectos` : `${slugs.length} projects`,
      );
      const link = doc.querySelector('[data-project="altos-de-la-carolina"] h2 a')?.getAttribute('href');
      expect(link).toBe(lang === 'es' ? '/es/proyectos/altos-de-la-carolina' : '/projects/altos-de-la-carolina');
      expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${server.url}${path}`);
      expect(doc.querySelector('link[rel="alternate"][hreflang="es"]')?.getAttribute('href')).toBe(
        `${server.url}/es/proyectos`,
      );
    }
  });

  it("a project's page, in both languages: its stage, delivery, the unit table as SQL has it, JSON-LD with its price range, and the preview", async () => {
    const [project] = await server.sql<{
      id: string;
      name: string;
      stage: string;
      reservation: number;
      entrada_pct: number;
    }>(
      "select id::text as id, name, stage, reservation::float8 as reservation, entrada_pct::float8 as entrada_pct from internal.projects where slug = 'altos-de-la-carolina'",
    );
    const units = await server.sql<{
      id: string;
      price_min: number;
      price_max: number;
      units_available: number;
      plan: string;
    }>(
      'select id::text as id, price_min::float8 as price_min, price_max::float8 as price_max, units_available, floor_plans->>0 as plan from internal.project_unit_types where project_id = $1 order by position',
      [project?.id],
    );
    for (const path of ['/projects/altos-de-la-carolina', '/es/proyectos/altos-de-la-carolina']) {
      const { status, doc } = await page(`${server.url}${path}`);
      expect(status, path).toBe(200);
      const es = path.startsWith('/es');
      expect(text(doc.querySelector('h1'))).toBe(project?.name);
      expect(text(doc.querySelector('title'))).toContain(
        `${es ? 'desde' : 'from'} ${formatPrice(Math.min(...units.map((u) => u.price_min)))}`,
      );
      expect(text(doc.querySelector('.project__stage'))).toContain(es ? 'Preventa' : 'Pre-sale');
      const rows = [...doc.querySelectorAll('table.project__units tbody tr')];
      expect(rows.map((r) => r.getAttribute('data-unit'))).toEqual(units.map((u) => u.id));
      expect(rows.map((r) => text(r.querySelectorAll('td')[3]))).toEqual(units.map((u) => String(u.units_available)));
      expect(rows.map((r) => text(r.querySelectorAll('td')[2]))).toEqual(
        units.map((u) => `${es ? 'Desde' : 'From'} ${formatPrice(u.price_min)}`),
      );
      // each type's floor plan, to its full size, described in the page's language
      for (const [i, r] of rows.entries()) {
        const plan = r.querySelector('a[data-floor-plan] img');
        expect(
          plan
            ?.closest('a')
            ?.getAttribute('href')
            ?.endsWith(units[i]?.plan ?? '-'),
        ).toBe(true);
        expect(plan?.getAttribute('alt')).toMatch(es ? /^Plano de Tipo [A-C] · / : /^Floor plan of Tipo [A-C] · /);
      }
      const ld = [...doc.querySelectorAll('script[type="application/ld+json"]')].map(
        (s) => JSON.parse(s.textContent ?? '{}') as Record<string, unknown>,
      );
      const offer = ld.find((b) => b['@type'] === 'Product')?.offers as Record<string, unknown>;
      expect([offer.lowPrice, offer.highPrice, offer.offerCount]).toEqual([
        Math.min(...units.map((u) => u.price_min)),
        Math.max(...units.map((u) => u.price_max)),
        units.reduce((n, u) => n + u.units_available, 0),
      ]);
      expect(ld.find((b) => b['@type'] === 'ApartmentComplex')?.name).toBe(project?.name);
      expect(doc.querySelector('meta[property="og:image"]')?.getAttribute('content')).toMatch(
        new RegExp(`^${server.url}/og/pages/projects/altos-de-la-carolina\\.${es ? 'es' : 'en'}\\.jpg`),
      );
      // its questions are about its own listing, whose agent is the project's: the inquiry form names it
      const [own] = await server.sql<{ id: string; agent: string; project_agent: string }>(
        `select l.id::text as id, l.agent_id::text as agent, p.agent_id::text as project_agent
           from internal.listings l join internal.projects p on p.id = l.project_id where p.slug = 'altos-de-la-carolina'`,
      );
      expect(own?.agent).toBe(own?.project_agent);
      const form = doc.querySelector('exp-inquiry-form');
      expect(form?.getAttribute('listing-id')).toBe(own?.id);
      expect(form?.getAttribute('heading')).toBe(es ? `Pregunta por ${project?.name}` : `Ask about ${project?.name}`);
    }
  });

  it("the seed's units for sale: each within its type's ranges, for sale as any listing and marked with its project; the project's page lists them, each to its own page, which names the project", async () => {
    const units = await server.sql<{ id: string; slug: string; model: string; within: boolean; title: string }>(
      `select l.id::text as id, p.slug, t.model, l.title,
              l.price between t.price_min and t.price_max and l.square_feet between t.area_min and t.area_max and l.bedrooms = t.bedrooms as within
         from internal.listings l join internal.project_unit_types t on t.id = l.unit_type_id join internal.projects p on p.id = t.project_id
        where l.is_public and l.operation = 'sale' order by p.slug, t.position, l.price`,
    );
    expect(units.length).toBeGreaterThanOrEqual(20);
    expect(units.filter((u) => !u.within)).toEqual([]);
    const slug = units[0]?.slug ?? '';
    const mine = units.filter((u) => u.slug === slug);
    const hrefs: Record<string, string> = {};
    for (const [path, lang] of [
      [`/projects/${slug}`, 'en'],
      [`/es/proyectos/${slug}`, 'es'],
    ] as const) {
      const { doc } = await page(`${server.url}${path}`);
      const links = [...doc.querySelectorAll('[data-unit-listing]')];
      expect(links.map((a) => a.getAttribute('data-unit-listing')).sort()).toEqual(mine.map((u) => u.id).sort());
      expect(links[0]?.getAttribute('href')).toMatch(
        new RegExp(`^${lang === 'es' ? '/es' : ''}/properties/${mine[0]?.id}-`),
      );
      hrefs[lang] = links[0]?.getAttribute('href') ?? '';
    }
    const unit = mine[0];
    const { status, doc } = await page(`${server.url}${hrefs.es}`);
    expect(status).toBe(200);
    const box = doc.querySelector(`[data-unit-of="${slug}"]`);
    expect(text(box)).toContain(`Obra nueva: ${unit?.model} de `);
    expect(box?.querySelector('a')?.getAttribute('href')).toBe(`/es/proyectos/${slug}`);
  });

  it("a project's description says its stage once, in both languages (a delivered one said it twice)", async () => {
    for (const [path, said] of [
      ['/projects/challuabamba-villas', 'Delivered'],
      ['/es/proyectos/challuabamba-villas', 'Entregado'],
      ['/projects/torre-quito-tenis', 'Under construction'],
    ] as const) {
      const { doc } = await page(`${server.url}${path}`);
      const description = doc.querySelector('meta[name="description"]')?.getAttribute('content') ?? '';
      expect(description.split(said).length - 1, description).toBe(1);
    }
  });

  it('the payment plan of the unit and lender a visitor picks, without a script: as core/protocol/payment-plan.ts makes it from the database', async () => {
    const [p] = await server.sql<{ id: string; delivery: string; reservation: number; entrada_pct: number }>(
      "select id::text as id, delivery::text as delivery, reservation::float8 as reservation, entrada_pct::float8 as entrada_pct from internal.projects where slug = 'riverside-samborondon'",
    );
    const [unit] = await server.sql<{ id: string; price_min: number }>(
      'select id::text as id, price_min::float8 as price_min from internal.project_unit_types where project_id = $1 order by position offset 1 limit 1',
      [p?.id],
    );
    const biess = SITE.mortgage.find((l) => l.id === 'biess') as (typeof SITE.mortgage)[number];
    const plan = paymentPlan(
      unit?.price_min as number,
      {
        reservation: p?.reservation as number,
        entradaPct: p?.entrada_pct as number,
        years: biess.years,
        annualRatePct: biess.annualRatePct,
      },
      nowDate(),
      new Date(`${p?.delivery}T12:00:00Z`),
    );
    expect(plan?.cuotas).toBeGreaterThan(12);
    const { status, doc } = await page(`${server.url}/projects/riverside-samborondon?unit=${unit?.id}&lender=biess`);
    expect(status).toBe(200);
    expect(doc.querySelector('select[name="unit"] option[selected]')?.getAttribute('value')).toBe(unit?.id);
    // each unit's choice: its model and type, then its price, which a 320 px phone shows (the first 39
    // characters of a select's text; the bedrooms, in the table above, made it 41 in Spanish), then its area
    const es = (await page(`${server.url}/es/proyectos/riverside-samborondon`)).doc;
    for (const option of [doc, es].flatMap((d) => [...d.querySelectorAll('select[name="unit"] option')])) {
      const [, before = '', price = ''] = /^(.+?), (\$[\d,]+), [\d,.-]+ m²$/.exec(text(option)) ?? [];
      expect(`${before}, ${price}`.length, text(option)).toBeLessThanOrEqual(39);
      expect(price, text(option)).not.toBe('');
    }
    expect(text(doc.querySelector('select[name="unit"] option[selected]'))).toContain(
      `, ${formatPrice(unit?.price_min as number)}, `,
    );
    const cells = [...doc.querySelectorAll('table[data-plan] tr')].map((r) => [
      text(r.querySelector('th')),
      text(r.querySelector('td')),
    ]);
    expect(cells.map(([, v]) => v)).toEqual([
      formatAmount(plan?.price as number),
      formatAmount(plan?.entrada as number),
      formatAmount(plan?.reservation as number),
      plan?.cuota === plan?.lastCuota
        ? `${formatAmount(plan?.cuota as number)} each`
        : `${formatAmount(plan?.cuota as number)} each, the last ${formatAmount(plan?.lastCuota as number)}`,
      formatAmount(plan?.balance as number),
    ]);
    expect(cells[3]?.[0]).toMatch(new RegExp(`^${plan?.cuotas} monthly cuotas, `));
    // beside its price per m², its place's resale median: the sector's, else (a sector the index does not know) its city's
    expect(text(doc.querySelector('[data-sector-m2]'))).toMatch(
      /^Resale in Samborondón: \$[\d,]+ per m² \(median asking price, /,
    );
    expect(text(doc.querySelector('[data-plan-mortgage]'))).toContain(
      `${formatAmount(plan?.mortgage?.monthly as number)} a month over ${biess.years} years`,
    );
    // a unit or lender the project does not have: its first unit on sale, the default lender
    const fallback = await page(`${server.url}/projects/riverside-samborondon?unit=99999&lender=%3Cscript%3E`);
    expect(fallback.status).toBe(200);
    expect(fallback.html).not.toContain('<script>x');
    expect(fallback.doc.querySelector('select[name="lender"] option[selected]')?.getAttribute('value')).toBe(
      SITE.mortgage[0].id,
    );
  });

  it('a withdrawn project, one without a unit type and one never made are 404; the sitemap lists the others in both languages', async () => {
    await server.sql("update internal.projects set status = 'withdrawn' where slug = 'bosque-norte'");
    await server.sql(
      "delete from internal.project_unit_types where project_id = (select id from internal.projects where slug = 'el-vergel-cuenca')",
    );
    for (const path of [
      '/projects/bosque-norte',
      '/projects/el-vergel-cuenca',
      '/projects/no-such-project',
      '/es/proyectos/bosque-norte',
    ])
      expect((await page(`${server.url}${path}`)).status, path).toBe(404);
    const list = await page(`${server.url}/projects`);
    expect(list.doc.querySelector('[data-project="bosque-norte"]')).toBeNull();
    const sitemap = await (await fetch(`${server.url}/sitemaps/pages.xml`)).text();
    const slugs = (await server.sql<{ slug: string }>(LISTED)).map((r) => r.slug);
    expect(slugs).not.toContain('bosque-norte');
    for (const slug of slugs) {
      expect(sitemap).toContain(`<loc>${server.url}/projects/${slug}</loc>`);
      expect(sitemap).toContain(`hreflang="es" href="${server.url}/es/proyectos/${slug}"`);
    }
    expect(sitemap).not.toContain('/projects/bosque-norte<');
    expect(sitemap).toContain(`<loc>${server.url}/projects</loc>`);
  });

  it('the database refuses a unit type whose range runs backwards, and a project being built without its progress or to be delivered without a date', async () => {
    const [p] = await server.sql<{ id: string }>(
      "select id::text as id from internal.projects where slug = 'torre-quito-tenis'",
    );
    const refused = async (sql: string, params: unknown[] = []) => {
      const error = await server.sql(sql, params).then(
        () => null,
        (e: { code?: string }) => e,
      );
      return error?.code;
    };
    expect(
      await refused(
        'insert into internal.project_unit_types (project_id, position, property_type, bedrooms, area_min, area_max, price_min, price_max) values ($1, 9, $2, 2, 80, 90, 150000, 120000)',
        [p?.id, 'apartment'],
      ),
    ).toBe('23514');
    expect(
      await refused(
        'insert into internal.project_unit_types (project_id, position, property_type, bedrooms, area_min, area_max, price_min, price_max) values ($1, 9, $2, 2, 90, 80, 120000, 150000)',
        [p?.id, 'apartment'],
      ),
    ).toBe('23514');
    expect(
      await refused(
        "insert into internal.projects (slug, name, city, stage, delivery, source_key) values ('x-1', 'X', 'Quito', 'under_construction', '2028-01-01', 'x-1')",
      ),
    ).toBe('23514');
    expect(
      await refused(
        "insert into internal.projects (slug, name, city, stage, source_key) values ('x-2', 'X', 'Quito', 'pre_sale', 'x-2')",
      ),
    ).toBe('23514');
    expect(
      await refused(
        "insert into internal.projects (slug, name, city, stage, delivery, source_key) values ('Bad Slug', 'X', 'Quito', 'delivered', '2025-01-01', 'x-3')",
      ),
    ).toBe('23514');
  });

  it("what a project's data says is text: markup in its name and description is escaped in the page and its head", async () => {
    await server.sql(
      "update internal.projects set name = 'Torre <script>alert(1)</script>', description_en = '<img src=x onerror=alert(2)> Nice' where slug = 'torre-quito-tenis'",
    );
    const { status, html, doc } = await page(`${server.url}/projects/torre-quito-tenis`);
    expect(status).toBe(200);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(text(doc.querySelector('h1'))).toBe('Torre <script>alert(1)</script>');
    expect(text(doc.querySelector('title'))).toContain('Torre <script>alert(1)</script>');
  });
});
