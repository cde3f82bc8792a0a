/**
 * Interaction to Next Paint on the search page (/search-properties, the default seed over PostgreSQL),
 * headless Chromium at 1280x900 with the CPU slowed 4x: for each interaction, the longest Event
 * Timing entry (`event` entries with an interactionId: input delay + processing + the next paint)
 * among the events the interaction caused, 10 repetitions, p75 reported. Target: 150 ms.
 *  - filter submit: a city typed (not measured), then the Search button clicked;
 *  - typing: each key of a place typed in the location box (target 100 ms);
 *  - page change: page 2, then page 1 again, clicked;
 *  - open the detail: a card's title clicked (the dialog opens; Escape closes it between runs);
 *  - pin click: a single pin on the map clicked (the detail opens from the map).
 *  - the valuation (/sell, docs/valuation.md): from Estimate clicked, and from a field changed once
 *    answered, to the element's answer (its `exp-valuation-estimated` event), target 300 ms.
 * The map is reached through the test build's hooks (dist/test-widgets, served in place of
 * /widgets/ for this page) to find a pin's pixel; the code measured is the production code.
 */
import type { Page } from 'playwright';
import { summarise, type Summary } from './stats.ts';
import { withSite } from './site.ts';

const REPS = 10;
const TARGET_MS = 150;
/** issue 27: typing in the location box at 4x CPU */
const TYPING_TARGET_MS = 100;
/** issue 44: the valuation's answer within 300 ms of the last field, on a phone's CPU */
const VALUATION_TARGET_MS = 300;

/** The longest event duration of the interactions that happen while `act` runs (and until the next paints). */
async function inp(page: Page, act: () => Promise<void>): Promise<number> {
  await page.evaluate(() => ((window as unknown as { inpMark: number }).inpMark = performance.now()));
  await act();
  await page.waitForTimeout(400);
  return page.evaluate(() => {
    const w = window as unknown as { inpEntries: Array<{ start: number; duration: number }>; inpMark: number };
    const durations = w.inpEntries.filter((e) => e.start >= w.inpMark).map((e) => e.duration);
    return durations.length ? Math.max(...durations) : 0;
  });
}

export async function benchInp(): Promise<Record<string, unknown>> {
  const results: Record<string, Summary> = {};
  await withSite({ testWidgetsAt: '/widgets/' }, async (page, url) => {
    await page.addInitScript(() => {
      const w = window as unknown as { inpEntries: Array<{ start: number; duration: number }> };
      w.inpEntries = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Array<PerformanceEntry & { interactionId?: number }>)
          if (e.interactionId) w.inpEntries.push({ start: e.startTime, duration: e.duration });
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    });
    const cdp = await page.context().newCDPSession(page);
    await page.goto(`${url}/search-properties?city=Ibarra`);
    const search = page.locator('exp-property-search');
    const heading = search.locator('[part="results-heading"]');
    await search.locator('[part~="card"]').first().waitFor();
    await search.locator('[part="map"] [data-status="ready"]').waitFor();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

    const samples: Record<string, number[]> = {
      filterSubmit: [],
      typing: [],
      pageChange: [],
      openDetail: [],
      pinClick: [],
      valuationFirst: [],
      valuationChange: [],
    };
    for (let i = 0; i < REPS; i++) {
      const city = i % 2 ? 'Ibarra' : 'Cuenca';
      await search.getByLabel('Location').fill(city);
      await page.keyboard.press('Escape');
      const before = await heading.textContent();
      samples.filterSubmit!.push(
        await inp(page, async () => {
          await search.getByRole('button', { name: 'Search', exact: true }).click();
          await page
            .waitForFunction(
              ({ el, text }) => el?.textContent !== text,
              { el: await heading.elementHandle(), text: before },
              { timeout: 20_000 },
            )
            .catch(() => undefined);
        }),
      );
      await search.locator('[part~="card"]').first().waitFor();
    }
    // typing in the location box, each key its own interaction (the suggestions come as it pauses)
    const box = search.locator('input[role="combobox"]');
    for (let i = 0; i < REPS; i++) {
      await box.fill('');
      await box.focus();
      for (const key of i % 2 ? 'inaq' : 'cumb') samples.typing!.push(await inp(page, () => page.keyboard.press(key)));
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
    }
    for (let i = 0; i < REPS; i++) {
      const to = i % 2 ? '1' : '2';
      samples.pageChange!.push(
        await inp(page, async () => {
          await search.getByRole('button', { name: `Page ${to}`, exact: true }).click();
          await search.locator('[part~="card"]').first().waitFor();
        }),
      );
    }
    for (let i = 0; i < REPS; i++) {
      samples.openDetail!.push(
        await inp(page, async () => {
          await search
            .locator('[part~="card"] a.exp-card-link')
            .nth(i % 4)
            .click();
          await search.locator('dialog[open]').waitFor();
        }),
      );
      await page.keyboard.press('Escape');
      await search.locator('dialog[open]').waitFor({ state: 'detached' });
    }
    // the map fitted to one city's listings, on a fresh page: a pin on its own to click
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.goto(`${url}/search-properties?city=Ibarra`);
    await search.locator('[part="map"] [data-status="ready"]').waitFor();
    await search.locator('[part="map"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(1500);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    for (let i = 0; i < REPS; i++) {
      const point = await page.evaluate(() => {
        const target = document
          .querySelector('exp-property-search')
          ?.shadowRoot?.querySelector('[part="map"] [data-status="ready"]') as
          (HTMLElement & { expMap?: { stats(): unknown; pixelOf(id: string): [number, number] | undefined } }) | null;
        const cards = [
          ...(document.querySelector('exp-property-search')?.shadowRoot?.querySelectorAll('[data-property-id]') ?? []),
        ].map((c) => c.getAttribute('data-property-id') as string);
        const rect = target?.getBoundingClientRect();
        for (const id of cards) {
          const px = target?.expMap?.pixelOf(id);
          const y = rect ? rect.top + px![1] - 14 : -1;
          if (
            px &&
            rect &&
            px[0] > 20 &&
            px[1] > 40 &&
            px[0] < rect.width - 20 &&
            px[1] < rect.height - 20 &&
            y > 0 &&
            y < innerHeight
          )
            return [rect.left + px[0], y] as [number, number];
        }
        return {
          why: {
            map: Boolean(target?.expMap),
            cards: cards.length,
            rect: rect ? [rect.top, rect.height, innerHeight] : null,
            px: cards.slice(0, 3).map((id) => target?.expMap?.pixelOf(id)),
          },
        };
      });
      if (!point || !Array.isArray(point)) {
        console.log('[bench:inp] no pin to click:', JSON.stringify(point));
        break;
      }
      samples.pinClick!.push(
        await inp(page, async () => {
          await page.mouse.click(point[0], point[1]);
          await search
            .locator('dialog[open]')
            .waitFor({ timeout: 5000 })
            .catch(() => undefined);
        }),
      );
      await page.keyboard.press('Escape');
      await page.waitForTimeout(300);
    }
    // the valuation: its answer (the element's event) after Estimate, and after a field changes
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.goto(`${url}/sell`);
    const valuation = page.locator('exp-home-valuation');
    await valuation.locator('[part="form"]').waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { estimated: number[] };
      w.estimated = [];
      addEventListener('exp-valuation-estimated', () => w.estimated.push(performance.now()));
    });
    await valuation.getByRole('combobox', { name: 'Where is it?' }).fill('cumba');
    await valuation.getByRole('listbox').getByRole('option').first().click();
    await valuation.getByLabel('Built area (m²)').fill('250');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const answered = async (act: () => Promise<void>): Promise<number> => {
      const [count, start] = await page.evaluate(
        () => [(window as unknown as { estimated: number[] }).estimated.length, performance.now()] as const,
      );
      await act();
      await page.waitForFunction((n) => (window as unknown as { estimated: number[] }).estimated.length > n, count, {
        timeout: 10_000,
      });
      return page.evaluate((t) => ((window as unknown as { estimated: number[] }).estimated.at(-1) ?? t) - t, start);
    };
    for (let i = 0; i < REPS; i++)
      samples.valuationFirst!.push(
        await answered(() => valuation.getByRole('button', { name: 'Estimate its price' }).click()),
      );
    for (let i = 0; i < REPS; i++)
      samples.valuationChange!.push(await answered(() => valuation.getByLabel(/^Bedrooms/).fill(String(2 + (i % 3)))));
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    for (const [name, xs] of Object.entries(samples)) if (xs.length) results[name] = summarise(xs);
  });
  const labels: Record<string, string> = {
    filterSubmit: 'filter submit (Search clicked)',
    typing: 'a key typed in the location box (target 100 ms)',
    pageChange: 'page change',
    openDetail: 'open the detail (card clicked)',
    pinClick: 'pin click (detail from the map)',
    valuationFirst: 'valuation: Estimate clicked to its answer (target 300 ms)',
    valuationChange: 'valuation: a field changed to the new answer (target 300 ms)',
  };
  const rows = Object.entries(results).map(
    ([name, s]) =>
      `| ${labels[name]} | ${s.n} | ${Math.round(s.p50)} ms | ${Math.round(s.p75)} ms | ${Math.round(s.max)} ms |`,
  );
  const misses = Object.entries(results)
    .filter(
      ([name, s]) =>
        s.p75 > (name === 'typing' ? TYPING_TARGET_MS : name.startsWith('valuation') ? VALUATION_TARGET_MS : TARGET_MS),
    )
    .map(([name]) => labels[name]);
  const markdown = [
    `### Interaction to Next Paint, search page (Chromium, 1280x900, CPU 4x slower; ${new Date().toISOString().slice(0, 10)})`,
    '',
    '| interaction | runs | p50 | p75 | max |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    `Target: p75 ≤ ${TARGET_MS} ms (a key typed: ${TYPING_TARGET_MS} ms; the valuation's answer, from the click or the last field to the element's answer: ${VALUATION_TARGET_MS} ms). ${misses.length ? `Missed: ${misses.join(', ')}.` : 'Met.'}`,
  ].join('\n');
  return { cpuSlowdown: 4, reps: REPS, targetMs: TARGET_MS, interactions: results, misses, markdown };
}
