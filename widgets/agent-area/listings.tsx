/**
 * Her listings and how they do (docs/agent-area.md "Her listings"): each of her listings on the
 * market, with its last eight weeks of page views, saves, inquiries, visit requests and alert mails
 * (counts only, as RESO's InternetTrackingSummary), beside its sector's median USD/m².
 */
import texts from 'virtual:exp-texts/lazy/agent-area/listings';
import type { Session } from '@supabase/auth-js';
import { useMemo, useState } from 'react';
import { formatPrice } from '../../core/protocol/format.ts';
import { getMyListingFigures, type ListingFigures } from '../lib/data/agent-area.ts';
import { useElement } from '../lib/element.tsx';
import { card } from './ui.ts';
import { ListStatus } from './status.tsx';
import { addTexts } from '../lib/i18n.ts';
import { useLoad } from './use-load.ts';

await addTexts(texts);

const METRICS = ['views', 'saves', 'inquiries', 'visit_requests', 'alert_mails'] as const;

export function Listings({ id, session }: { id: string; session: Session }) {
  const { t, api, lang } = useElement();
  const [listings, setListings] = useState<ListingFigures[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useLoad(
    () => getMyListingFigures(api, session),
    setListings,
    () => setFailed(true),
    'load the figures',
    [api, session, attempt],
  );
  const weekFormat = useMemo(
    () =>
      new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    [lang],
  );

  return (
    <section className="flex flex-col gap-4" part="listings" aria-labelledby={`${id}-listings`}>
      <h2 id={`${id}-listings`} className="m-0 text-2xl font-bold text-ink">
        {t('agentArea.listings.title')}
      </h2>
      <p className="m-0 text-ink-muted">{t('agentArea.listings.intro')}</p>
      <ListStatus
        counted={listings && t('agentArea.listings.count', { count: listings.length })}
        failed={failed}
        part="listings-count"
        onRetry={() => {
          setFailed(false);
          setAttempt((n) => n + 1);
        }}
      />
      <ul className="list-none m-0 p-0 flex flex-col gap-4">
        {(listings ?? []).map((l) => {
          const totals = Object.fromEntries(METRICS.map((m) => [m, l.weeks.reduce((s, w) => s + w[m], 0)])) as Record<
            (typeof METRICS)[number],
            number
          >;
          return (
            <li key={l.id}>
              <article className={card} part="listing-figures" aria-labelledby={`${id}-l${l.id}`}>
                <h3 id={`${id}-l${l.id}`} className="m-0 text-lg font-semibold text-ink">
                  {l.title}
                </h3>
                <p className="m-0 text-ink-muted">
                  {[l.sector, l.city, l.price ? formatPrice(l.price) : null].filter(Boolean).join(' · ')}
                </p>
                <p className="m-0 text-ink">{t('agentArea.listings.totals', { weeks: l.weeks.length, ...totals })}</p>
                {l.market?.median ? (
                  <p className="m-0 text-ink">
                    {t('agentArea.listings.market', {
                      place: l.market.name,
                      median: formatPrice(l.market.median),
                      count: l.market.listings,
                    })}
                    {l.usd_m2 ? ` · ${t('agentArea.listings.yours', { value: formatPrice(l.usd_m2) })}` : ''}
                  </p>
                ) : null}
                {/* the weeks one by one when she asks: fifty listings' tables open at once were a page of 23,000 px */}
                <details part="weeks">
                  <summary className="cursor-pointer font-semibold text-primary">
                    {t('agentArea.listings.byWeek')}
                  </summary>
                  {/* (a narrow phone scrolls the table: the region takes the keyboard's focus to scroll it) */}
                  <div
                    className="overflow-x-auto"
                    tabIndex={0}
                    role="region"
                    aria-label={t('agentArea.listings.caption', { title: l.title })}
                  >
                    <table className="w-full border-collapse text-sm text-ink">
                      <caption className="sr-only">{t('agentArea.listings.caption', { title: l.title })}</caption>
                      <thead>
                        <tr>
                          <th scope="col" className="p-1 text-left font-semibold">
                            {t('agentArea.listings.week')}
                          </th>
                          {METRICS.map((m) => (
                            <th key={m} scope="col" className="p-1 text-right font-semibold">
                              {t(`agentArea.listings.metric.${m}`)}
                            </th>
                          ))}
                        </tr>
                      </thead>
                      <tbody>
                        {l.weeks.map((w) => (
                          <tr key={w.week} className="border-t border-line">
                            <th scope="row" className="p-1 text-left font-normal">
                              {weekFormat.format(new Date(`${w.week}T12:00:00Z`))}
                            </th>
                            {METRICS.map((m) => (
                              <td key={m} className="p-1 text-right tabular-nums">
                                {w[m]}
                              </td>
                            ))}
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </details>
              </article>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
