import { describe, expect, it } from 'vitest';
import { cappedSizes, photoPath, photoSources, PHOTO_SIZES } from './photos.ts';

describe('re-hosted photos (core/protocol/photos.ts)', () => {
  const hash = '0123456789abcdef0123456789abcdef';
  it("offers every width in every format from any of a photo's addresses; any other address is left alone", () => {
    const s = photoSources(`https://api.example${photoPath(hash, 640, 'webp')}`);
    expect(s?.src).toBe(`https://api.example/media/photos/${hash}/1024.jpg`);
    expect(s?.srcset).toBe(
      `https://api.example/media/photos/${hash}/320.jpg 320w, https://api.example/media/photos/${hash}/640.jpg 640w, https://api.example/media/photos/${hash}/1024.jpg 1024w, https://api.example/media/photos/${hash}/1600.jpg 1600w`,
    );
    expect(s?.sources.map((x) => x.type)).toEqual(['image/avif', 'image/webp']);
    expect(s?.sources[0]?.srcset.split(', ')[0]).toBe(`https://api.example/media/photos/${hash}/320.avif 320w`);
    for (const other of [
      'https://cdn.example/photo.jpg',
      `/media/photos/${hash}/1024.png`,
      `/media/photos/${hash.slice(1)}/1024.jpg`,
      `/media/photos/${hash}/800.jpg`,
      `/media/listings/house-1.svg`,
    ])
      expect(photoSources(other), other).toBeNull();
  });
  it('reads a photo kept in a Supabase Storage bucket the same way (its public address ends in photos/<hash>/<width>)', () => {
    const base = `https://abc.supabase.co/storage/v1/object/public/media/photos/${hash}`;
    const s = photoSources(`${base}/1024.jpg`);
    expect(s?.src).toBe(`${base}/1024.jpg`);
    expect(s?.sources[1]).toEqual({
      type: 'image/webp',
      srcset: [320, 640, 1024, 1600].map((w) => `${base}/${w}.webp ${w}w`).join(', '),
    });
  });
  it('caps the density at 2 photo pixels a CSS pixel: sizes scaled on screens above 2, left alone at 2 and under', () => {
    expect(cappedSizes(PHOTO_SIZES.card, 1)).toBe(PHOTO_SIZES.card);
    expect(cappedSizes(PHOTO_SIZES.card, 2)).toBe(PHOTO_SIZES.card);
    expect(cappedSizes(PHOTO_SIZES.card, 3)).toBe(
      '(min-width: 1024px) calc(400px * 0.667), (min-width: 640px) calc(50vw * 0.667), calc(100vw * 0.667)',
    );
    expect(cappedSizes('100vw', 2.625)).toBe('calc(100vw * 0.762)');
  });
});
