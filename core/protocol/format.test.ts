import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  formatArea,
  formatNumber,
  formatPrice,
  formatPricePill,
  initials,
  normalisePhone,
  priceValue,
} from './format.ts';

describe('formatting', () => {
  it('shows dollars with en-US separators, stripping non-digits from text prices', () => {
    expect(formatPrice(1250000)).toBe('$1,250,000');
    expect(formatPrice('$ 250.000')).toBe('$250,000');
    expect(formatPrice('USD 99,500')).toBe('$99,500');
    expect(formatPrice(null)).toBe('$0');
    expect(formatPrice(-5)).toBe('$0');
    expect(priceValue('precio a consultar')).toBe(0);
  });

  it('abbreviates map pills with K and M, one decimal below 100', () => {
    expect(formatPricePill(950)).toBe('$950');
    expect(formatPricePill(85_500)).toBe('$85.5K');
    expect(formatPricePill(85_000)).toBe('$85K');
    expect(formatPricePill(250_000)).toBe('$250K');
    expect(formatPricePill(999_000)).toBe('$999K');
    expect(formatPricePill(1_250_000)).toBe('$1.3M');
    expect(formatPricePill(12_540_000)).toBe('$12.5M');
    expect(formatPricePill(150_000_000)).toBe('$150M');
  });

  it('writes numbers exactly as Intl.NumberFormat en-US does, without loading it', () => {
    const cases = [
      0, 1, 7, 12, 999, 1000, 1001, 12345, 999999, 1000000, 1234567.89, 92.5, 92.45, 92.55, 0.05, 0.04, 1.25, 2.675,
      1e15, 123456789012, -1, -1234.5, -0.04, -0, 0.5, 1.5, 2.5, 1e20, 4.35, 10.05,
    ];
    for (const n of cases) {
      for (const decimals of [0, 1])
        expect(formatNumber(n, decimals), `${n} with ${decimals}`).toBe(
          new Intl.NumberFormat('en-US', { maximumFractionDigits: decimals }).format(n),
        );
    }
    for (let i = 0; i < 2000; i++) {
      const n = Math.round(Math.random() * 10 ** (1 + (i % 9)) * 100) / 100;
      expect(formatNumber(n, 1)).toBe(new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(n));
      expect(formatNumber(n)).toBe(new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(n));
    }
  });

  it('shows areas in square metres', () => {
    expect(formatArea(1200)).toBe('1,200 m²');
    expect(formatArea(92.5)).toBe('92.5 m²');
  });

  it('normalises phones for WhatsApp: digits only, a leading 0 becomes 593 (Ecuador)', () => {
    expect(normalisePhone('099 214 5587')).toBe('593992145587');
    expect(normalisePhone('+593 99 214 5587')).toBe('593992145587');
    expect(normalisePhone('02 245 6789')).toBe('59322456789');
    expect(normalisePhone('(02) 245-6789', '1')).toBe('122456789');
    expect(normalisePhone('')).toBe('');
    expect(normalisePhone(null)).toBe('');
    expect(normalisePhone('n/a')).toBe('');
  });

  it('makes initials for a missing photo', () => {
    expect(initials('María Fernanda Andrade')).toBe('MA');
    expect(initials('carlos')).toBe('C');
    expect(initials('  ')).toBe('?');
  });
});

describe('formatAmount', () => {
  it('says the cents when there are any, two of them, and none when there are not', () => {
    expect([
      formatAmount(1168),
      formatAmount(4071.48),
      formatAmount(4071.4),
      formatAmount(587.44),
      formatAmount(1234567.05),
    ]).toEqual(['$1,168', '$4,071.48', '$4,071.40', '$587.44', '$1,234,567.05']);
  });
});
