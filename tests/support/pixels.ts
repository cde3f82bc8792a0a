/**
 * How different two screenshots are: the share of pixels that differ beyond anti-aliasing noise.
 * An element at a fractional position can be captured one pixel taller or wider; up to one pixel
 * of size difference is tolerated and the common area compared.
 */
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';

function crop(png: PNG, width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) png.data.copy(out, y * width * 4, y * png.width * 4, y * png.width * 4 + width * 4);
  return out;
}

export function pixelDifference(
  a: Buffer,
  b: Buffer,
): { share: number; size: [number, number]; other: [number, number] } {
  const one = PNG.sync.read(a);
  const two = PNG.sync.read(b);
  const sizes = {
    size: [one.width, one.height] as [number, number],
    other: [two.width, two.height] as [number, number],
  };
  if (Math.abs(one.width - two.width) > 1 || Math.abs(one.height - two.height) > 1) return { share: 1, ...sizes };
  const width = Math.min(one.width, two.width);
  const height = Math.min(one.height, two.height);
  const diff = pixelmatch(crop(one, width, height), crop(two, width, height), undefined, width, height, {
    threshold: 0.1,
  });
  return { share: diff / (width * height), ...sizes };
}
