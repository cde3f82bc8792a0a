/**
 * A listing's price history and time on the market (docs/product.md §2, "Price history"), drawn
 * alike by the detail (widgets/lib/listing/price-history.tsx, which fetches it) and the listing's
 * own page (server/pages/listing-page.tsx, which has it): how long it has been listed, and each
 * price change since, newest first, as a table. Each side brings its classes.
 */
import type { ReactNode } from 'react';
import { formatCount, formatPrice } from '../protocol/format.ts';
import { formatChange, formatEventDate, type PriceEvent } from '../protocol/price-history.ts';
import type { Lang } from '../lang.ts';
import type { Translate } from '../translate.ts';

export interface PriceHistoryClasses {
  section?: string;
  heading?: string;
  days?: string;
  table?: string;
  headRow?: string;
  th?: string;
  thNumber?: string;
  row?: string;
  td?: string;
  price?: string;
  change?: string;
  /** a change down */
  drop?: string;
}

/** The table's columns: the text's key, and whether it holds a number (right-aligned). */
const COLUMNS: Array<[string, boolean]> = [
  ['date', false],
  ['event', false],
  ['price', true],
  ['change', true],
];

export interface PriceHistoryViewProps {
  /** days on the market (null: unknown) */
  days: number | null;
  /** the events; none yet, or only 'listed': no table */
  events: PriceEvent[] | null;
  t: Translate;
  lang: Lang;
  heading: 'h2' | 'h3';
  classes?: PriceHistoryClasses;
  part?: string;
  /** what else the section says (the detail's error line) */
  children?: ReactNode;
}

export function PriceHistoryView({
  days,
  events,
  t,
  lang,
  heading: Heading,
  classes: c = {},
  part,
  children,
}: PriceHistoryViewProps) {
  // a listing that only says when it was listed needs no table: the days say it
  const table = events && events.some((e) => e.event !== 'listed') ? events : null;
  if (days === null && !table && !children) return null;
  return (
    <section part={part} className={c.section}>
      <Heading className={c.heading}>{t('history.heading')}</Heading>
      {days !== null ? (
        <p className={c.days}>
          {days === 0
            ? t('history.onMarketToday')
            : t('history.onMarket', { count: days, formatted: formatCount(days) })}
        </p>
      ) : null}
      {table ? (
        <table className={c.table}>
          <thead>
            <tr className={c.headRow}>
              {COLUMNS.map(([key, numeric]) => (
                <th key={key} scope="col" className={numeric ? c.thNumber : c.th}>
                  {t(`history.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.map((e) => (
              <tr key={`${e.at}-${e.event}-${e.price}`} className={c.row}>
                <td className={c.td}>{formatEventDate(e.at, lang)}</td>
                <td className={c.td}>{t(`history.${e.event}`)}</td>
                <td className={c.price}>{formatPrice(e.price)}</td>
                <td className={e.change !== null && e.change < 0 ? (c.drop ?? c.change) : c.change}>
                  {formatChange(e.change)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {children}
    </section>
  );
}
