/**
 * What helps a visitor decide on a listing (docs/product.md, "Deciding on a listing"): the monthly
 * payment beside the price, by keyboard, in both languages. Screenshots at 1366, 390 and 320 px.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { formatPrice } from '../../core/protocol/format.ts';
import { monthlyPayment } from '../../core/protocol/payment.ts';
import { listingPath } from '../../core/routes.ts';
import { SITE } from '../../core/site.ts';
import { expect, seriousAxeViolations, test } from './fixtures.ts';

const shots = resolve(import.meta.dirname, '../../.cache/screenshots/decide');
mkdirSync(shots, { recursive: true });

type Row = { id: string; title: string; price: string };

const detail = (page: Page) => page.locator('exp-property-detail');

test.describe('deciding on a listing', () => {
  test('the monthly payment: the estimate on the default terms beside the price, opened by keyboard, updated on every keystroke, a lender chosen, a term out of range named at its field; axe clean in both languages', async ({ page, data, consoleErrors }) => {
    const [row] = await data.sql<Row>("select id::text as id, title, price::text as price from public.listings where status = '1' and country_code = 'EC' and price > 50000 order by id limit 1");
    const price = Number(row?.price);
    const [bank, biess] = SITE.mortgage;
    const monthly = (terms: { downPaymentPct: number; years: number; annualRatePct: number }) => formatPrice(monthlyPayment(price, terms)?.monthly);

    for (const lang of ['en', 'es'] as const) {
      const perMonth = (amount: string) => (lang === 'es' ? `${amount} al mes` : `${amount} a month`);
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`${data.url}${listingPath(String(row?.id), row?.title, lang)}`);
      const el = detail(page);
      const calculator = el.locator('[part="payment"]');
      const summary = calculator.locator('summary');
      await expect(summary).toContainText(perMonth(monthly(bank)));

      // by keyboard: focus the summary, open it with Enter
      await summary.focus();
      await page.keyboard.press('Enter');
      await expect(calculator).toHaveAttribute('open', '');
      const rate = el.getByLabel(lang === 'es' ? 'Tasa anual (%)' : 'Annual rate (%)');
      const years = el.getByLabel(lang === 'es' ? 'Plazo (años)' : 'Term (years)');
      const down = el.getByLabel(lang === 'es' ? 'Entrada (%)' : 'Down payment (%)');
      await expect(rate).toHaveValue(String(bank.annualRatePct));
      const output = calculator.locator('output');
      await expect(output).toContainText(perMonth(monthly(bank)));

      // every keystroke: a decimal comma is read as a point
      await rate.fill('');
      await rate.pressSequentially('7,5');
      await expect(output).toContainText(perMonth(monthly({ ...bank, annualRatePct: 7.5 })));
      await expect(summary).toContainText(perMonth(monthly({ ...bank, annualRatePct: 7.5 })));

      // a lender: its terms
      await el.getByRole('button', { name: biess.name[lang] }).click();
      await expect(el.getByRole('button', { name: biess.name[lang] })).toHaveAttribute('aria-pressed', 'true');
      await expect(years).toHaveValue(String(biess.years));
      await expect(down).toHaveValue(String(biess.downPaymentPct));
      await expect(output).toContainText(perMonth(monthly(biess)));
      await expect(calculator).toContainText(biess.source[lang]);

      // a term out of range: named at its field, and no estimate until it is right
      await years.fill('50');
      await expect(years).toHaveAttribute('aria-invalid', 'true');
      const error = calculator.locator('[part="field-error"]');
      await expect(error).toHaveText(lang === 'es' ? 'De 1 a 40' : 'From 1 to 40');
      expect(await years.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));
      await expect(output).toHaveText(lang === 'es' ? 'Ingrese los tres datos para ver la cuota.' : 'Enter the three terms to see the payment.');
      await years.fill('30');
      await expect(years).not.toHaveAttribute('aria-invalid', 'true');
      await expect(output).toContainText(perMonth(monthly({ ...biess, years: 30 })));

      expect(await seriousAxeViolations(page)).toEqual([]);
      for (const width of [1366, 390, 320]) {
        await page.setViewportSize({ width, height: width > 400 ? 900 : 720 });
        await page.waitForTimeout(200);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), `${lang} ${width}`).toBeLessThanOrEqual(width);
        await calculator.screenshot({ path: resolve(shots, `payment-${lang}-${width}.png`) });
      }
    }
    expect(consoleErrors).toEqual([]);
  });

  test('show-payment="false" leaves the estimate out, and "true" brings it back', async ({ page, data }) => {
    const [row] = await data.sql<Row>("select id::text as id, title, price::text as price from public.listings where status = '1' and country_code = 'EC' and price > 0 order by id limit 1");
    await page.goto(`${data.url}${listingPath(String(row?.id), row?.title, 'en')}`);
    const el = detail(page);
    await expect(el.locator('[part="payment"]')).toHaveCount(1);
    await el.evaluate((host) => host.setAttribute('show-payment', 'false'));
    await expect(el.locator('[part="facts"]')).toBeVisible();
    await expect(el.locator('[part="payment"]')).toHaveCount(0);
    await el.evaluate((host) => host.setAttribute('show-payment', 'true'));
    await expect(el.locator('[part="payment"]')).toHaveCount(1);
  });
});
