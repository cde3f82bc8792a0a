/**
 * Phones: every page, and the dialogs the elements open, at 320 and 390 px wide, in English and
 * Spanish. Nothing is cut off on the right: no text or control ends beyond the window (or beyond
 * the dialog it sits in), and neither the page nor any scrolling box in it scrolls sideways. Things
 * that are meant to sit outside (the carousel's other photos, the map's canvas, a closed side
 * panel) are inside a box that clips them, and are left out. A strip of photos swiped sideways on
 * purpose (a box that scrolls with `scroll-snap-type: x`, a project's gallery) may scroll, and clips
 * its photos.
 */
import type { Page } from '@playwright/test';
import { listingPath } from '../../core/routes.ts';
import type { Lang } from '../../core/lang.ts';
import { EVERY_PAGE, expect, settled, test } from './fixtures.ts';

/** Elements whose right edge passes the right edge of the window or of their dialog, unless a clipping ancestor hides it. */
async function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const width = document.documentElement.clientWidth;
    const swipeStrip = (s: CSSStyleDeclaration) => /(auto|scroll)/.test(s.overflowX) && /\bx\b/.test(s.scrollSnapType);
    const clips = (el: Element): boolean => {
      for (
        let p: Element | null = el.parentElement ?? (el.getRootNode() as ShadowRoot).host ?? null;
        p;
        p = p.parentElement ?? (p.getRootNode() as ShadowRoot).host ?? null
      ) {
        if (p === document.documentElement || p === document.body) return false;
        const s = getComputedStyle(p);
        if ((/(hidden|clip)/.test(s.overflowX) || swipeStrip(s)) && p.getBoundingClientRect().right <= width + 1)
          return true;
        if (s.visibility === 'hidden' || s.display === 'none') return true;
      }
      return false;
    };
    const visit = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.shadowRoot) visit(el.shadowRoot);
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        const s = getComputedStyle(el);
        if (s.visibility === 'hidden' || (s.position === 'fixed' && r.left >= width)) continue;
        // a box that scrolls must not have to scroll sideways
        if (
          /(auto|scroll)/.test(s.overflowX) &&
          !swipeStrip(s) &&
          el.scrollWidth > el.clientWidth + 1 &&
          el.localName !== 'html' &&
          el.localName !== 'body'
        )
          out.push(
            `<${el.localName}${el.getAttribute('part') ? ` part="${el.getAttribute('part')}"` : ''}> scrolls sideways: ${el.scrollWidth} > ${el.clientWidth}`,
          );
        const dialog = el.closest('dialog[open]');
        const limit = dialog && dialog !== el ? dialog.getBoundingClientRect().right : width;
        if (r.right > limit + 1 && !clips(el))
          out.push(
            `<${el.localName}${el.getAttribute('part') ? ` part="${el.getAttribute('part')}"` : ''}${el.className && typeof el.className === 'string' ? ` class="${el.className.slice(0, 60)}"` : ''}> right ${Math.round(r.right)} > ${Math.round(limit)}: ${(el.textContent ?? '').trim().slice(0, 40)}`,
          );
      }
    };
    visit(document);
    if (document.documentElement.scrollWidth > width + 1)
      out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    return out;
  });
}

for (const width of [320, 390]) {
  for (const lang of ['en', 'es'] as const satisfies readonly Lang[]) {
    test(`nothing is cut off at ${width} px in ${lang}: every page`, async ({ page, data }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: 800 });
      const [listing] = await data.sql<{ id: string; title: string }>(
        "select id::text as id, title from internal.listings where status = '1' and country_code = 'EC' and project_id is null order by id limit 1",
      );
      for (const path of [
        ...EVERY_PAGE.map((p) => `${p}?lang=${lang}`),
        listingPath(String(listing?.id), listing?.title, lang),
      ]) {
        await page.goto(`${data.url}${path}`);
        await settled(page);
        expect(await cutOff(page), `${path} at ${width} px (${lang})`).toEqual([]);
      }
    });

    test(`nothing is cut off at ${width} px in ${lang}: the property detail and the agent dialog`, async ({
      page,
      data,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const [row] = await data.sql<{ id: string }>(
        "select id::text as id from internal.listings where status = '1' and country_code = 'EC' and agent_id is not null order by id limit 1",
      );
      await page.goto(`${data.url}/search-properties?property=${row?.id}&lang=${lang}`);
      const dialog = page.locator('exp-property-search').locator('dialog[open]');
      await expect(dialog.locator('[part="facts"]')).toBeVisible();
      await settled(page);
      expect(await cutOff(page), `detail at ${width} px (${lang})`).toEqual([]);
      // the inquiry card, further down the dialog
      await dialog.locator('[part="inquiry-form"]').scrollIntoViewIfNeeded();
      expect(await cutOff(page), `inquiry card at ${width} px (${lang})`).toEqual([]);

      await page.goto(`${data.url}/findanagent?lang=${lang}`);
      await page.locator('exp-agent-directory').locator('[part~="agent-card"]').first().click();
      await expect(page.locator('exp-agent-directory').locator('dialog[open]')).toBeVisible();
      await settled(page);
      expect(await cutOff(page), `agent dialog at ${width} px (${lang})`).toEqual([]);
    });
  }
}

// the hero clips what passes its edge (its drawing is wider than a phone), so the check above takes a
// choice cut off in it for one meant to be there: its three choices are held here ("Proyectos" was cut)
test("the home's Buy, Rent and New homes fit a 320 px phone in both languages", async ({ page, data }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  for (const path of ['/', '/es']) {
    await page.goto(`${data.url}${path}`);
    const choices = page.locator('.hero-search__operation label');
    await expect(choices).toHaveCount(3);
    for (const right of await choices.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right)))
      expect(right, path).toBeLessThanOrEqual(320 - 16);
  }
});

// a button's words broken over two lines ("More / filters") are not cut off, so the check above passes
// them; nor "Sort by" ending one line and its select starting the next
test("the search's More filters and Search buttons each keep their words on one line on a 320 px phone, and Sort by stays on the line of its select, in both languages", async ({
  page,
  data,
}) => {
  await page.setViewportSize({ width: 320, height: 800 });
  for (const path of ['/search-properties', '/es/search-properties']) {
    await page.goto(`${data.url}${path}`);
    for (const part of ['more-filters', 'search-button']) {
      const button = page.locator(`exp-property-search [part="${part}"]`).first();
      await expect(button).toBeVisible();
      // one line: its words' boxes all start at one height
      const lines = await button.evaluate((b) => {
        const tops: number[] = [];
        const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const r of range.getClientRects()) if (r.width > 0) tops.push(r.top);
        }
        // a new line starts more than 8 px below the one before
        return tops.sort((x, y) => x - y).filter((top, i) => i === 0 || top - tops[i - 1]! > 8).length;
      });
      expect(lines, `${path} ${part}`).toBe(1);
    }
    const sort = page.locator('exp-property-search [part="sort"]');
    const select = sort.locator('select');
    await expect(select).toBeVisible();
    const label = (await sort.locator('label').boundingBox())!;
    const box = (await select.boundingBox())!;
    // the label's middle within the select's height, left of it; both inside the window
    expect(label.y + label.height / 2, path).toBeGreaterThan(box.y);
    expect(label.y + label.height / 2, path).toBeLessThan(box.y + box.height);
    expect(label.x + label.width, path).toBeLessThanOrEqual(box.x);
    expect(box.x + box.width, path).toBeLessThanOrEqual(320);
  }
});
