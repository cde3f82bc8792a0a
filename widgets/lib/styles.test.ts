import { describe, expect, it } from 'vitest';
import { remToPx } from './styles.ts';

describe('styles', () => {
  it('converts rem to px so the host page font size cannot scale our widgets', () => {
    expect(remToPx('padding:1rem;margin:-.5rem;gap:0.25rem')).toBe('padding:16px;margin:-8px;gap:4px');
    expect(remToPx('font-size:1.125rem;line-height:1.75rem')).toBe('font-size:18px;line-height:28px');
    expect(remToPx('width:calc(100% - 2.5rem)')).toBe('width:calc(100% - 40px)');
    expect(remToPx('--x:remy;width:10px')).toBe('--x:remy;width:10px');
  });
});
