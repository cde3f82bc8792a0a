import { expect } from '@esm-bundle/chai';
import { BUNDLE_URL, quiet, waitFor } from './helpers.ts';

/** The kind of global CSS a CMS theme ships; none of it may change how our elements look. */
export const HOSTILE_CSS = `
  * { color: red !important; font-size: 40px; }
  html { font-size: 40px; }
  button { background: hotpink !important; }
`;

const PROPS = [
  'color',
  'background-color',
  'font-size',
  'font-family',
  'font-weight',
  'line-height',
  'padding-left',
  'border-radius',
] as const;

interface Snapshot {
  box: { w: number; h: number };
  nodes: Array<Record<string, string | number>>;
}

async function renderIn(
  css: string,
  html: string,
  tag: string,
  ready: string,
): Promise<{ frame: HTMLIFrameElement; snap: Snapshot }> {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width:800px;height:300px;border:0';
  frame.srcdoc = `<!doctype html><html lang="en"><head><style>${css}</style><script type="module" src="${BUNDLE_URL}"></script></head><body>${html}</body></html>`;
  document.body.append(frame);
  await new Promise((r) => frame.addEventListener('load', r, { once: true }));
  const doc = frame.contentDocument as Document;
  const el = await waitFor(
    () => doc.querySelector(tag)?.shadowRoot?.querySelector(ready) && doc.querySelector(tag),
    8000,
    `${tag} in iframe`,
  );
  // twind writes its rules after render
  await quiet();
  const root = el.shadowRoot as ShadowRoot;
  const win = frame.contentWindow as Window;
  const nodes = [...root.querySelectorAll('[part]')].map((n) => {
    const cs = win.getComputedStyle(n);
    const rect = n.getBoundingClientRect();
    return {
      part: n.getAttribute('part') ?? '',
      w: Math.round(rect.width),
      h: Math.round(rect.height),
      ...Object.fromEntries(PROPS.map((p) => [p, cs.getPropertyValue(p)])),
    };
  });
  const rect = (root.querySelector('[part~="root"]') as Element).getBoundingClientRect();
  return { frame, snap: { box: { w: Math.round(rect.width), h: Math.round(rect.height) }, nodes } };
}

describe('a hostile host page', () => {
  it('cannot change how <exp-language-switch> looks', async () => {
    const html = '<exp-language-switch></exp-language-switch>';
    const plain = await renderIn('', html, 'exp-language-switch', 'button');
    const hostile = await renderIn(HOSTILE_CSS, html, 'exp-language-switch', 'button');
    try {
      // the fixture really is hostile: its own text is red and 40px
      const probe = (hostile.frame.contentDocument as Document).createElement('p');
      probe.textContent = 'host text';
      hostile.frame.contentDocument?.body.append(probe);
      expect(
        getComputedStyle(probe).color === 'rgb(255, 0, 0)' ||
          hostile.frame.contentWindow?.getComputedStyle(probe).color === 'rgb(255, 0, 0)',
      ).to.equal(true);
      expect(hostile.snap.nodes.length).to.be.greaterThan(2);
      expect(hostile.snap).to.deep.equal(plain.snap);
      for (const n of hostile.snap.nodes) {
        expect(n.color).to.not.equal('rgb(255, 0, 0)');
        expect(n['font-size']).to.not.equal('40px');
      }
    } finally {
      plain.frame.remove();
      hostile.frame.remove();
    }
  });
});
