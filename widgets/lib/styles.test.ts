import { describe, expect, it } from 'vitest';
import { remToPx } from './styles.ts';

describe('styles', () => {
  it('converts rem to px so the host page font size cannot scale our widgets', () => {
    const cases: Array<[string, string]> = [
      ['padding:1rem;margin:-.5rem;gap:0.25rem', 'padding:16px;margin:-8px;gap:4px'],
      ['font-size:1.125rem;line-height:1.75rem', 'font-size:18px;line-height:28px'],
      ['width:calc(100% - 2.5rem)', 'width:calc(100% - 40px)'],
      // a name that only starts like a unit is left alone
      ['--x:remy;width:10px', '--x:remy;width:10px'],
    ];
    for (const [css, px] of cases) expect(remToPx(css), css).toBe(px);
  });
});
