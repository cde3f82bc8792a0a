/**
 * The site's films (docs/architecture.md "The three parts"): shipped as their posters, made and played
 * over them once the page has loaded, never under reduced motion; the search hero's follows the
 * city searched.
 */
import { expect, settled, setClock, test } from './fixtures.ts';

test.describe("the host site's films", () => {
  // as a visitor who has not asked for reduced motion (the suite's default asks for it: playwright.config.ts)
  test.use({ reducedMotion: 'no-preference' });

  test('home: the media row stands still and videos stay posters under reduced motion', async ({ browser, data }) => {
    const context = await setClock(await browser.newContext({ reducedMotion: 'reduce' }));
    const page = await context.newPage();
    await page.goto(`${data.url}/`);
    await page.waitForLoadState('load');
    expect(await page.locator('.marquee__track').evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    await settled(page);
    // the posters only: no film is made (site/lib/media.ts)
    await expect(page.locator('.hero--home img[data-video="quito"]')).toBeVisible();
    await expect(page.locator('video')).toHaveCount(0);
    await context.close();
  });

  test('home: the hero video loops muted once the page has loaded, over its poster; the search hero changes film with the city searched', async ({
    page,
    data,
  }) => {
    // the page's HTML holds the posters as images and no <video> (its media controls' style and layout cost a phone's first paint)
    const raw = await (await page.request.get(`${data.url}/`)).text();
    expect(raw).not.toContain('<video');
    expect(raw).toMatch(
      /<img class="hero__media" data-video="quito" src="\/media\/video\/quito-poster.webp"[^>]*fetchpriority="high"/,
    );
    await page.goto(`${data.url}/`);
    const video = page.locator('.hero--home video');
    await expect(video.locator('source')).toHaveCount(2);
    await expect(video).toHaveAttribute('poster', '/media/video/quito-poster.webp');
    // over its poster, which stays under it
    expect(await video.evaluate((v) => v.previousElementSibling?.getAttribute('data-video'))).toBe('quito');
    expect(
      await video.evaluate((v: HTMLVideoElement) => ({ muted: v.muted, loop: v.loop, playsInline: v.playsInline })),
    ).toEqual({
      muted: true,
      loop: true,
      playsInline: true,
    });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);

    // the search page's hero: Quito's film, then the coast's once the visitor searches Manta
    await page.goto(`${data.url}/search-properties`);
    const hero = page.locator('[data-search-hero]');
    await expect(hero.locator('video source').first()).toHaveAttribute('src', '/media/video/quito.webm');
    await page.evaluate(() =>
      document.dispatchEvent(new CustomEvent('exp-search', { detail: { filters: { city: 'Manta' } } })),
    );
    await expect(hero.locator('img[data-video]')).toHaveAttribute('src', '/media/video/coast-poster.webp');
    await expect(hero.locator('video')).toHaveAttribute('poster', '/media/video/coast-poster.webp');
    expect(await hero.locator('video source').evaluateAll((s) => s.map((e) => e.getAttribute('src')))).toEqual([
      '/media/video/coast.webm',
      '/media/video/coast.mp4',
    ]);
    await expect(hero.locator('video')).toHaveCount(1);
  });
});
