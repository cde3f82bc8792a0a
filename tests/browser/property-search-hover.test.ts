/**
 * <exp-property-search>'s hover under the real mouse: a card hovered draws its pin highlighted on
 * the map, a pin hovered draws its card highlighted, and neither draws the search again. The
 * hovered listing is a signal that the map and each card read themselves, so a hover costs the
 * cards it changes and a pin, not a render of the whole search (its filter bar, its map's
 * component, its 24 cards), which on a phone's CPU took about 100 ms a hover and delayed the click
 * that follows it (docs/benchmarks.md, "open the detail").
 */
import { expect } from '@esm-bundle/chai';
import { sendMouse } from '@web/test-runner-commands';
import { API_URL, mount, waitFor } from './helpers.ts';
import { atPin, mapReady, useMapPage } from '../support/property-map.ts';

describe('<exp-property-search>: a hover', () => {
  useMapPage();

  it('highlights the card and its pin, and draws the search no more', async () => {
    // a handful of listings, none clustered (tests/browser/property-map-pins.test.ts)
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" city="cumbaya" property-type="house" beds="4" min-price="380000" max-price="390000"></exp-property-search>`,
      'exp-property-search',
      '[part="results-heading"]',
    );
    const target = await mapReady(el);
    const cards = () => [...(el.shadowRoot?.querySelectorAll<HTMLElement>('[part~="card"]') ?? [])];
    const [first, second] = await waitFor(
      () => {
        const [a, b] = cards().filter((c) => target.expMap.pixelOf(c.dataset.propertyId ?? ''));
        return a && b ? [a, b] : null;
      },
      15000,
      'two cards with pins',
    );
    const ids = [first.dataset.propertyId, second.dataset.propertyId];
    // the search as drawn, its last render at load done (the property types it asks for, beside
    // the one its attributes name): the test build counts its renders on the element
    await waitFor(
      () => (el.shadowRoot?.querySelectorAll('select[name="propertyType"] option').length ?? 0) > 2,
      15000,
      'the property types',
    );
    const renders = el.getAttribute('data-renders');
    expect(Number(renders)).to.be.above(0);

    first.scrollIntoView({ block: 'center' });
    const box = first.getBoundingClientRect();
    await sendMouse({ type: 'move', position: [Math.round(box.left + box.width / 2), Math.round(box.top + 24)] });
    await waitFor(() => target.expMap.highlighted() === ids[0], 5000, 'the hovered card’s pin');
    expect(first.getAttribute('part')).to.equal('card card-highlighted');
    expect(second.getAttribute('part')).to.equal('card');
    expect(el.getAttribute('data-renders')).to.equal(renders);

    target.scrollIntoView({ block: 'center' });
    await atPin(target, String(ids[1]), 'move', () => second.getAttribute('part') === 'card card-highlighted');
    expect(target.expMap.highlighted()).to.equal(ids[1]);
    expect(first.getAttribute('part')).to.equal('card');
    expect(el.getAttribute('data-renders')).to.equal(renders);
  });

  it('gives and takes a card’s highlight after the next frame, not in the frame of what the pointer did; a card entered again keeps it', async () => {
    const el = await mount(
      `<exp-property-search api-url="${API_URL}" sync-url="false" city="cumbaya"></exp-property-search>`,
      'exp-property-search',
      '[part="results-heading"]',
    );
    const card = await waitFor(() => el.shadowRoot?.querySelector<HTMLElement>('[part~="card"]'), 15000, 'a card');
    // the real pointer held on the filter bar, away from every card and pin: Chromium moves its hover
    // when the page changes under a pointer that stands still, and this test makes its own
    el.scrollIntoView({ block: 'start' });
    const bar = el.shadowRoot!.querySelector('[part="filters"]')!.getBoundingClientRect();
    await sendMouse({ type: 'move', position: [Math.round(bar.left + 8), Math.round(bar.top + 8)] });
    const pointer = (type: 'mouseover' | 'mouseout') =>
      card.dispatchEvent(new MouseEvent(type, { bubbles: true, composed: true, relatedTarget: null }));
    const highlighted = () => card.getAttribute('part') === 'card card-highlighted';
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    pointer('mouseover');
    // a tap on a phone enters the card in the frame of its click: the highlight (the card drawn
    // again, its pin on the map) waits for the frame after it
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(highlighted(), 'not yet highlighted in the frame of the pointer entering').to.equal(false);
    await waitFor(highlighted, 5000, 'the hovered card highlighted');
    pointer('mouseout');
    // a task queued now runs before the frame's (the clear is queued by the next frame's callback)
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(highlighted(), 'still highlighted in the frame of the pointer leaving').to.equal(true);
    await waitFor(() => !highlighted(), 5000, 'the highlight gone after the frame');
    // left and entered again before the frame: the highlight stays
    pointer('mouseover');
    await waitFor(highlighted, 5000, 'highlighted again');
    pointer('mouseout');
    pointer('mouseover');
    // the frame's callbacks in the order asked for, then the tasks they queued in that order: this
    // test's task comes after the clear's, whichever runs
    await frame();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(highlighted(), 'entered again').to.equal(true);
  });
});
