/**
 * Rent and buy (docs/product.md "Rent and buy"), as a visitor in Quito would: "Arrendar" first in
 * the bar, only rentals and each priced a month, the count the SQL written apart gives, and the
 * alícuota and parking filters narrowing it; in Spanish, with axe.
 */
import { ACTIVE, expect, fmt, FOR_RENT, search, seriousAxeViolations, test } from './fixtures.ts';

test.describe('rent and buy', () => {
  test('Arrendar in Quito: only rentals, priced a month, counted as SQL counts; max alícuota 150 and 2+ parqueaderos narrow it', async ({
    page,
    data,
    consoleErrors,
  }) => {
    const count = async (where: string) =>
      Number(
        (
          await data.sql<{ n: number }>(
            `select count(*)::int as n from internal.listings where ${FOR_RENT} and ${where}`,
          )
        )[0]?.n,
      );
    await page.goto(`${data.url}/es/search-properties`);
    const s = search(page);
    await expect(s.heading).toHaveText(/propiedades$/);
    // Comprar is what a search without an operation is
    await expect(s.el.getByRole('radio', { name: 'Comprar' })).toBeChecked();
    // the switch's labels are what a visitor presses (the radios themselves are visually hidden)
    await s.el.locator('[part="operation"] label', { hasText: 'Arrendar' }).click();
    await expect(s.el.getByRole('radio', { name: 'Arrendar' })).toBeChecked();
    await expect(page).toHaveURL(/operation=rent/);
    await expect(s.heading).toHaveText(`${fmt(await count('true'))} propiedades`);
    await expect(s.el.locator('[part="chips"]')).toContainText('En arriendo');

    // Quito, picked in the location box
    await s.box.fill('Quito');
    await s.list.getByRole('option', { name: /^Quito Ciudad/ }).click();
    await expect(page).toHaveURL(/place=quito(&|$)/);
    const quito = await count("public.search_fold(city) = 'quito'");
    expect(quito).toBeGreaterThan(24);
    await expect(s.heading).toHaveText(`${fmt(quito)} propiedades`);
    await expect(s.cards).toHaveCount(24);
    // every card's price is a month's
    const prices = await s.el.locator('[part="card-price"] p:first-child').allTextContents();
    expect(prices).toHaveLength(24);
    for (const price of prices) expect(price).toMatch(/^\$[\d,]+\/mes/);
    // the rent's own price steps
    await expect(s.el.getByLabel('Precio mínimo').locator('option')).toContainText([
      'Cualquiera',
      '$300',
      '$500',
      '$800',
      '$1.2K',
      '$2K',
    ]);

    // more filters: at most USD 150 of alícuota (a listing that says none is kept), then 2+ parking spaces
    await s.el.locator('[part="more-filters"]').click();
    await s.el.getByLabel('Alícuota máxima').selectOption('150');
    await s.el.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect(page).toHaveURL(/maxHoaFee=150/);
    const cheap = await count("public.search_fold(city) = 'quito' and (hoa_fee is null or hoa_fee <= 150)");
    expect(cheap).toBeLessThan(quito);
    await expect(s.heading).toHaveText(`${fmt(cheap)} propiedades`);
    await s.el.getByLabel('Parqueaderos').selectOption('2');
    await expect(s.el.getByLabel('Acepta mascotas')).toBeVisible();
    await s.el.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect(page).toHaveURL(/parking=2/);
    const parked = await count(
      "public.search_fold(city) = 'quito' and (hoa_fee is null or hoa_fee <= 150) and parking_spaces >= 2",
    );
    expect(parked).toBeGreaterThan(0);
    expect(parked).toBeLessThan(cheap);
    await expect(s.heading).toHaveText(`${fmt(parked)} ${parked === 1 ? 'propiedad' : 'propiedades'}`);
    await expect(s.el.locator('[part="chips"]')).toContainText('alícuota hasta $150');
    expect(await seriousAxeViolations(page)).toEqual([]);

    // back to Comprar: sales again, the rent's prices and pets gone
    await s.el.locator('[part="operation"] label', { hasText: 'Comprar' }).click();
    await expect(page).not.toHaveURL(/operation=rent/);
    // the same place, alícuota and parking, for sale
    const [{ n: sales } = { n: 0 }] = await data.sql<{ n: number }>(
      `select count(*)::int as n from internal.listings where ${ACTIVE} and public.search_fold(city) = 'quito' and (hoa_fee is null or hoa_fee <= 150) and parking_spaces >= 2`,
    );
    await expect(s.heading).toHaveText(`${fmt(sales)} propiedades`);
    for (const price of await s.el.locator('[part="card-price"] p:first-child').allTextContents())
      expect(price).not.toMatch(/^\$[\d,]+\/mes/);
    expect(consoleErrors).toEqual([]);
  });
});
