/**
 * What <exp-home-valuation> answers (docs/valuation.md): the value and its range, the place's
 * market, buyer demand, the agent who serves it, the comparables it stood on, and what it is: an
 * estimate of an asking price, not an appraisal.
 */
import { formatArea, formatCount, formatPrice } from '../../core/protocol/format.ts';
import { formatChange } from '../../core/protocol/market.ts';
import { normaliseImages, typeLabel } from '../../core/protocol/listing.ts';
import { demandText, type Estimate } from '../../core/protocol/valuation.ts';
import { agentPath, listingPath, marketPath } from '../../core/routes.ts';
import { useElement } from '../lib/element.tsx';
import { siteUrl } from '../lib/site-links.ts';

/** The estimate: the value and its range, the place's market, buyer demand, the agent, the comparables, what it is. */
export function ValuationAnswer({ estimate: r }: { estimate: Estimate }) {
  const { t, api, lang, site } = useElement();
  const place = r.place?.name ?? '';
  const change = r.market?.yearBefore ? r.market.median / r.market.yearBefore - 1 : null;
  return (
    <div className="flex flex-col gap-4" part="result">
      <div className="rounded-brand border border-line bg-surface-subtle px-5 py-4 flex flex-col gap-1">
        <p className="m-0 text-sm text-ink-muted">{t('valuation.result.heading')}</p>
        {r.value === null ? (
          <p className="m-0 text-[15px]" part="value">
            {t('valuation.result.none')}
          </p>
        ) : (
          <>
            <p className="m-0 text-[clamp(28px,6vw,40px)] font-bold leading-tight" part="value">
              {formatPrice(r.value)}
            </p>
            <p className="m-0 text-[15px]" part="range">
              {t('valuation.result.range', { low: formatPrice(r.low), high: formatPrice(r.high) })} ·{' '}
              {t('valuation.result.perM2', { price: formatPrice(r.usdM2) })}
            </p>
            <p className="m-0 text-sm font-semibold" part="confidence">
              {t(`valuation.confidence.${r.confidence}`)}
            </p>
          </>
        )}
      </div>
      {r.market ? (
        <p className="m-0 text-[15px]" part="market">
          {t('valuation.market.line', { place: r.market.name, price: formatPrice(r.market.median) })}
          {change !== null ? ` (${t('valuation.market.change', { change: formatChange(change) })})` : ''}{' '}
          <a className="text-primary underline" href={siteUrl(marketPath(r.market.path), site, lang)}>
            {t('valuation.market.link')}
          </a>
        </p>
      ) : null}
      <p className="m-0 text-[15px]" part="demand">
        {demandText(r, t)}
      </p>
      {r.agent && place ? (
        <p className="m-0 text-[15px]" part="agent">
          {t('valuation.agent', { place })}:{' '}
          <a className="text-primary underline font-semibold" href={siteUrl(agentPath(r.agent.id), site, lang)}>
            {r.agent.name}
          </a>
        </p>
      ) : null}
      {r.comparables.length ? (
        <div className="flex flex-col gap-2">
          <h3 className="m-0 text-lg font-semibold">{t('valuation.comparables.heading')}</h3>
          <ul
            className="m-0 p-0 list-none grid gap-3 grid-cols-[minmax(0,1fr)] cq-md:grid-cols-[repeat(2,minmax(0,1fr))]"
            part="comparables"
          >
            {r.comparables.map((c) => {
              const image = normaliseImages(c.images, api.url)[0];
              return (
                <li
                  key={c.id}
                  className="flex gap-3 min-w-0 rounded-md border border-line bg-surface p-2"
                  part="comparable"
                >
                  {image ? (
                    <img
                      src={image}
                      alt=""
                      width={96}
                      height={72}
                      loading="lazy"
                      className="w-24 h-[72px] shrink-0 rounded object-cover bg-surface-subtle"
                    />
                  ) : null}
                  <div className="min-w-0 flex flex-col gap-0.5 text-sm">
                    <a
                      className="block font-semibold text-ink underline-offset-2 hover:underline truncate"
                      href={siteUrl(listingPath(c.id, c.title, 'en'), site, lang)}
                    >
                      {c.title || typeLabel(c.propertyType, t)}
                    </a>
                    <span>
                      <strong>{formatPrice(c.price)}</strong> · {formatArea(c.area)} ·{' '}
                      {t('valuation.result.perM2', { price: formatPrice(c.usdM2) })}
                    </span>
                    <span className="text-ink-muted">
                      {t('valuation.comparables.distance', {
                        distance:
                          c.distance >= 1000
                            ? `${(c.distance / 1000).toFixed(1)} km`
                            : `${formatCount(Math.round(c.distance / 10) * 10)} m`,
                      })}{' '}
                      · {t('valuation.comparables.adjusted', { price: formatPrice(c.adjusted) })}
                    </span>
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
      <p className="m-0 text-sm text-ink-muted" part="note">
        {t('valuation.disclaimer')}
      </p>
    </div>
  );
}
