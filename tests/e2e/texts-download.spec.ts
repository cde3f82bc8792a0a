/**
 * The texts a page downloads, in a real browser (widgets/lib/i18n.ts, scripts/widget-texts.ts,
 * site/lib/texts.ts): a Spanish page downloads each of its elements' texts once and none of the
 * elements it does not have, and none of its own (the server wrote them in Spanish); a lazily loaded
 * part speaks the page's language from its first frame; an English page switched to Spanish brings
 * the Spanish of every element and part it has open, and its own texts, once.
 */
import type { Page, Response } from '@playwright/test';
import { expect, localeText, test } from './fixtures.ts';

const es = (key: string) => localeText('es', key);
const en = (key: string) => localeText('en', key);

/** The page's scripts as they arrive (their text), from now on. */
function scriptsOf(page: Page): Promise<string>[] {
  const bodies: Promise<string>[] = [];
  page.on('response', (response: Response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.text().catch(() => ''));
  });
  return bodies;
}

/** How many of the scripts hold `text` (as the build writes a string: in quotes of any kind). */
async function holding(scripts: Promise<string>[], text: string): Promise<number> {
  const all = await Promise.all(scripts);
  return all.filter((body) => ['"', "'", '`'].some((q) => body.includes(`${q}${text}${q}`))).length;
}

test('a Spanish page downloads each of its texts once, and none of elements it does not have', async ({
  page,
  data,
  consoleErrors,
}) => {
  const scripts = scriptsOf(page);
  await page.goto(`${data.url}/es/search-properties`);
  const search = page.locator('exp-property-search');
  await expect(search.getByText(es('results.sort.label'), { exact: true })).toBeVisible();
  await expect(
    page
      .locator('exp-site-header')
      .getByRole('link', { name: es('nav.joinExp') })
      .first(),
  ).toBeVisible();
  await page.waitForLoadState('load');
  // the search's own text (its element's Spanish), the page's own (the site's script), the header's
  expect(await holding(scripts, es('results.sort.label'))).toBe(1);
  // the page's own texts: the server wrote them in Spanish, so its script downloads none of them
  expect(await holding(scripts, es('site.meta.search.rentTitle'))).toBe(0);
  expect(await holding(scripts, es('nav.joinExp'))).toBe(1);
  // an element that is not on the page: the agents' area, the valuation; the e-mails' texts are the server's
  expect(await holding(scripts, es('agentArea.signInIntro'))).toBe(0);
  expect(await holding(scripts, es('valuation.title'))).toBe(0);
  expect(await holding(scripts, es('mail.alerts.confirm.subject'))).toBe(0);
  // nor a word of English texts the page does not show
  expect(await holding(scripts, en('agentArea.signInIntro'))).toBe(0);
  expect(consoleErrors).toEqual([]);
});

test('a part loaded on demand speaks the page language from its first frame, its texts not a second download, and an English page switched to Spanish brings the Spanish of the parts it has open', async ({
  page,
  data,
  consoleErrors,
}) => {
  const search = page.locator('exp-property-search');
  const more = search.locator('[part="more-filters"]');
  // Spanish: "Más filtros" asks for its code alone (its texts came with the search's), never a key on screen
  await page.goto(`${data.url}/es/search-properties`);
  await expect(search.getByText(es('results.sort.label'), { exact: true })).toBeVisible();
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') asked.push(new URL(request.url()).pathname);
  });
  await more.click();
  await expect(search.getByText(es('moreFilters.keywords'), { exact: true })).toBeVisible();
  await expect(search.getByText(/moreFilters\./)).toHaveCount(0);
  expect(asked.filter((path) => /\/more-filters-[\w-]+\.js$/.test(path))).toHaveLength(1);
  expect(asked.filter((path) => /\/chunks\/es-/.test(path))).toEqual([]);

  // English, the part opened, then the language switched: the part in Spanish too
  await page.goto(`${data.url}/search-properties`);
  await more.click();
  await expect(search.getByText(en('moreFilters.keywords'), { exact: true })).toBeVisible();
  const scripts = scriptsOf(page);
  await page.evaluate(() => (document.documentElement.lang = 'es'));
  await expect(search.getByText(es('moreFilters.keywords'), { exact: true })).toBeVisible();
  // the page's own texts too, downloaded now, once
  await expect(page.locator('h1[data-hero-title]')).toHaveText(es('site.search.hero.title'));
  expect(await holding(scripts, es('site.meta.search.rentTitle'))).toBe(1);
  await expect(search.getByText(es('results.sort.label'), { exact: true })).toBeVisible();
  await expect(search.getByText(/moreFilters\.|results\./)).toHaveCount(0);
  expect(consoleErrors).toEqual([]);
});
