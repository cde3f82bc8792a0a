/**
 * The join page as an agent who might join reads it: each reason's icon drawn (not a character a
 * visitor's fonts may lack), each step's heading set after its number.
 */
import { expect, test } from './fixtures.ts';

test.describe('the join page', () => {
  test("join: each reason's icon is drawn, not a character a visitor's fonts may lack (★ and ⚙ showed as empty boxes)", async ({
    page,
    data,
  }) => {
    await page.goto(`${data.url}/join`);
    const icons = page.locator('#reasons-title ~ * .tile__icon, section[aria-labelledby="reasons-title"] .tile__icon');
    await expect(icons).toHaveCount(6);
    // each an inline drawing (scripts/site-html.ts expandIcons), stroked in the tile's colour, hidden from screen readers
    const drawn = await icons.evaluateAll((els) =>
      els.map((e) => {
        const svg = e.querySelector('svg');
        const box = svg?.getBoundingClientRect();
        return {
          text: e.textContent,
          shapes: svg?.innerHTML ?? '',
          hidden: svg?.getAttribute('aria-hidden'),
          size: box ? [Math.round(box.width), Math.round(box.height)] : [],
          stroke: svg ? getComputedStyle(svg).stroke : '',
          colour: getComputedStyle(e).color,
        };
      }),
    );
    for (const icon of drawn) {
      expect(icon.text).toBe('');
      expect(icon.shapes).toMatch(/^<(path|circle) /);
      expect(icon.hidden).toBe('true');
      expect(icon.size).toEqual([24, 24]);
      expect(icon.stroke).toBe(icon.colour);
    }
    expect(new Set(drawn.map((d) => d.shapes)).size).toBe(6);
  });

  test("join: a step's heading of two lines starts its second line where its first starts, after its number, not under it", async ({
    page,
    data,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${data.url}/join`);
    const headings = page.locator('.steps h3');
    await expect(headings).toHaveCount(3);
    const lines = await headings.evaluateAll((els) =>
      els.map((h) => {
        const range = document.createRange();
        range.selectNodeContents(h);
        return [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.left));
      }),
    );
    // "Attend an / information session" is on two lines at 390 px
    expect(lines[0]!.length).toBeGreaterThan(1);
    for (const lefts of lines) expect(new Set(lefts).size, String(lefts)).toBe(1);
  });
});
