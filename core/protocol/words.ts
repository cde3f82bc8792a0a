/**
 * A visitor's words in the cards (docs/decisions.md #27). The database decides what matches
 * (public.words_query: websearch syntax, Spanish and English stems, folded); this file only marks
 * in a card's text the words that were asked for, so a visitor sees why a listing is there. It reads
 * the same syntax: "a phrase", -excluded, or. Its stems are a light approximation of the
 * database's (a word and its plural and gender forms), which is enough to mark what matched.
 */
import { fold } from './text.ts';

/** Words too common to mark (Spanish and English): they match everywhere or are no word at all. */
const STOP = new Set(
  'a al and at de del el en for in la las lo los near of on or the to un una unos unas with y con por para cerca sin'.split(
    ' ',
  ),
);

/** The stems of the words asked for (folded), excluded words and stop words left out. */
export function wordStems(words: string | undefined): string[] {
  if (!words) return [];
  const stems = new Set<string>();
  // a phrase in quotes counts word by word; '-word' (outside quotes) is excluded
  for (const m of words.matchAll(/"([^"]*)"?|(\S+)/g)) {
    const part = m[1] ?? m[2] ?? '';
    if (m[2]?.startsWith('-')) continue;
    for (const token of fold(part)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (STOP.has(token) || token.length < 2) continue;
      stems.add(stemOf(token));
    }
  }
  return [...stems];
}

/** A word without its last letters when it is long enough to have an ending: 'piscinas' -> 'piscin'. */
function stemOf(token: string): string {
  if (token.length > 5) return token.slice(0, -2);
  if (token.length > 4) return token.slice(0, -1);
  return token;
}

const matches = (token: string, stems: readonly string[]) => {
  const folded = fold(token).toLowerCase();
  // an ending of up to 4 letters ('piscin' + 'as'), 2 after a short word ('mar' + 'es', not 'marmol')
  return stems.some((s) => folded.startsWith(s) && folded.length <= s.length + (s.length <= 4 ? 2 : 4));
};

export interface TextPart {
  text: string;
  /** one of the words asked for */
  match: boolean;
}

/** The text cut where the words asked for are, to mark them. */
export function markWords(text: string, stems: readonly string[]): TextPart[] {
  if (!stems.length || !text) return [{ text, match: false }];
  const parts: TextPart[] = [];
  let at = 0;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    if (!matches(m[0], stems)) continue;
    const start = m.index;
    if (start > at) parts.push({ text: text.slice(at, start), match: false });
    parts.push({ text: m[0], match: true });
    at = start + m[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), match: false });
  return parts;
}

/**
 * Where a long text (a description) says one of the words: about `length` characters around the
 * first of them, cut at spaces, with … where it was cut; undefined when it says none.
 */
export function excerpt(text: string, stems: readonly string[], length = 110): string | undefined {
  if (!stems.length || !text) return undefined;
  const first = [...text.matchAll(/[\p{L}\p{N}]+/gu)].find((m) => matches(m[0], stems));
  if (!first) return undefined;
  let start = Math.max(0, first.index - Math.floor(length / 3));
  let end = Math.min(text.length, start + length);
  if (start > 0) start = text.indexOf(' ', start) + 1 || start;
  if (end < text.length) end = text.lastIndexOf(' ', end) > first.index ? text.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
