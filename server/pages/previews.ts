/**
 * The link preview of every page (docs/decisions.md #24): shared on WhatsApp or anywhere else, a
 * page shows a picture with its own heading in its own language, never a bare link. Listing and
 * agent pages show the listing's photo and the agent's portrait; the site's pages a card made from
 * the page itself: its hero picture (a place page its place's), the brand, and its heading, drawn
 * with sharp in a font we ship (@expo-google-fonts/inter), so it looks the same on any server.
 */
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { OG_SIZE, versionOf } from './images.ts';

const require = createRequire(import.meta.url);
const FONT_BOLD = require.resolve('@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf');
const FONT_SEMIBOLD = require.resolve('@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf');

/** Bump when the card's look changes: every page's preview address changes with it. */
const CARD_VERSION = 1;

export interface PageCard {
  /** our own picture behind the text: a path under /media/ */
  picture: string;
  /** above the heading (the brand; none when the page does not say it) */
  eyebrow: string;
  /** the page's heading, in the page's language */
  title: string;
}

/** What the rendered page says its card is: its first hero picture, the site's name (og:site_name) and its heading (else its title). */
export function cardOf(html: string, defaultPicture: string): PageCard {
  const picture =
    /<link rel="preload" as="image" href="(\/media\/[^"]+)"/.exec(html)?.[1] ??
    // a hero's film, shipped as its poster (core/search-hero.ts filmHtml)
    /<img class="hero__media"[^>]*\ssrc="(\/media\/[^"]+)"/.exec(html)?.[1] ??
    defaultPicture;
  const text = (s: string) =>
    s
      .replace(/<[^>]*>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .trim();
  const brand = text(/<meta property="og:site_name" content="([^"]*)"/.exec(html)?.[1] ?? '');
  const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];
  const title = h1
    ? text(h1)
    : (text(/<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1] ?? brand).split(' | ')[0] ?? brand);
  // a page's headline figure (a market report's price per m²) goes on its card beside the heading
  const figure = /<[a-z]+\b[^>]*\bdata-card-figure=""[^>]*>([\s\S]*?)<\//.exec(html)?.[1];
  return { picture, eyebrow: brand, title: (figure ? `${title}: ${text(figure)}` : title) || brand };
}

/** The `?v=` of a card's address: it changes when the picture, the text or the look does. */
export const cardVersion = (card: PageCard) =>
  versionOf(`${CARD_VERSION}\n${card.picture}\n${card.eyebrow}\n${card.title}`);

/** Text as Pango markup reads it: escaped. */
const markup = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;').replace(/"/g, '&quot;');

async function textImage(
  text: string,
  fontfile: string,
  font: string,
  width: number,
): Promise<{ data: Buffer; height: number }> {
  const { data, info } = await sharp({
    text: {
      text: `<span foreground="#ffffff">${markup(text)}</span>`,
      fontfile,
      font,
      width,
      rgba: true,
      wrap: 'word',
      dpi: 72,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { data, height: info.height };
}

/** The card as a 1200x630 PNG: the picture, a shade that keeps the text readable, the brand and the heading (at most three lines). */
export async function renderCard(card: PageCard, picture: Buffer): Promise<Buffer> {
  const { width: W, height: H } = OG_SIZE;
  const left = 80;
  const textWidth = W - 2 * left;
  let title = await textImage(card.title, FONT_BOLD, 'Inter Bold 64', textWidth);
  for (const size of [56, 48, 42]) {
    if (title.height <= 240) break;
    title = await textImage(card.title, FONT_BOLD, `Inter Bold ${size}`, textWidth);
  }
  const eyebrow = card.eyebrow
    ? await textImage(card.eyebrow, FONT_SEMIBOLD, 'Inter SemiBold 30', textWidth)
    : undefined;
  const titleTop = Math.max(120, H - 72 - title.height);
  const eyebrowTop = eyebrow ? titleTop - 20 - eyebrow.height : titleTop;
  const shade = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0b2340" stop-opacity="0.05"/><stop offset="0.45" stop-color="#0b2340" stop-opacity="0.35"/><stop offset="1" stop-color="#0b2340" stop-opacity="0.92"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#g)"/><rect x="${left}" y="${eyebrowTop - 30}" width="72" height="8" rx="4" fill="#c8102e"/></svg>`,
  );
  return sharp(picture, { density: 144 })
    .resize(W, H, { fit: 'cover' })
    .composite([
      { input: shade, top: 0, left: 0 },
      ...(eyebrow ? [{ input: eyebrow.data, top: eyebrowTop, left }] : []),
      { input: title.data, top: titleTop, left },
    ])
    .png()
    .toBuffer();
}
