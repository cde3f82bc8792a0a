/**
 * The map popup's "Schedule a visit" opens the detail at its times (docs/visits.md) even when React
 * throws away the detail's first render and renders it again, as it does when a part of the detail
 * suspends or an update arrives while it renders in the background (a full run of the suite once
 * showed the detail at its closed button).
 */
import { act, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { requestVisit, useVisitIntent } from './intent.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Asked({ id }: { id: string }) {
  return <p>{useVisitIntent(id) ? 'at its times' : 'closed'}</p>;
}

describe("the visit's intent", () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('holds through a render React discards, and is used once the detail is shown', async () => {
    const box = document.createElement('div');
    document.body.append(box);
    const root = createRoot(box);
    let ready = false;
    let release = () => {};
    const waiting = new Promise<void>((resolve) => {
      release = resolve;
    });
    // a part of the detail that is not ready at its first render: React drops that render whole
    function Later() {
      if (!ready) throw waiting;
      return null;
    }
    requestVisit('7');
    await act(async () => {
      root.render(
        <Suspense fallback={<p>loading</p>}>
          <Asked id="7" />
          <Later />
        </Suspense>,
      );
    });
    expect(box.textContent).toBe('loading');
    await act(async () => {
      ready = true;
      release();
      await waiting;
    });
    expect(box.textContent).toBe('at its times');

    // the map's ask was for that opening: the next detail of the listing opens closed
    await act(async () => root.render(<Asked id="7" key="again" />));
    expect(box.textContent).toBe('closed');
    // and an ask for one listing opens no other
    requestVisit('8');
    await act(async () => root.render(<Asked id="9" />));
    expect(box.textContent).toBe('closed');
    act(() => root.unmount());
  });
});
