/**
 * <exp-site-footer> (docs/product.md §2, footer). Every address, number and external URL comes from the
 * site configuration; every text from the locale files.
 */
import type { ReactNode } from 'react';
import { useElement, type ElementProps } from '../lib/element.tsx';
import { telHref } from '../../core/protocol/format.ts';
import { SITE } from '../../core/site.ts';
import { siteUrl } from '../lib/site-links.ts';
import { SITE_PAGES } from '../lib/site-pages.ts';
import { FacebookIcon } from '../lib/ui/icons/facebook.tsx';
import { InstagramIcon } from '../lib/ui/icons/instagram.tsx';
import { LinkedInIcon } from '../lib/ui/icons/linked-in.tsx';
import { MailIcon } from '../lib/ui/icons/mail.tsx';
import { PhoneIcon } from '../lib/ui/icons/phone.tsx';
import { PinIcon } from '../lib/ui/icons/pin.tsx';
import { YouTubeIcon } from '../lib/ui/icons/you-tube.tsx';
import { Logo } from '../lib/ui/logo.tsx';
import type { siteFooterAttributes } from './site-footer.attributes.ts';
import { nowDate } from '../../core/clock.ts';

type ExternalKey = keyof typeof SITE.external;

const WORLDWIDE: ExternalKey[] = [
  'join',
  'careers',
  'brand',
  'conference',
  'lifestyle',
  'international',
  'parent',
  'commercial',
  'luxury',
  'investors',
];
const LEGAL: ExternalKey[] = ['terms', 'cookies'];
/** our own notice under Ecuador's law and the page of a visitor's data (docs/privacy.md), before eXp's worldwide terms */
const PRIVACY = [
  { path: '/privacy', label: 'footer.links.privacyNotice' },
  { path: '/privacy/my-data', label: 'footer.links.myData' },
] as const;
const SOCIAL = [
  { key: 'facebook', Icon: FacebookIcon },
  { key: 'linkedin', Icon: LinkedInIcon },
  { key: 'instagram', Icon: InstagramIcon },
  { key: 'youtube', Icon: YouTubeIcon },
] as const;

const LINK = 'text-[color:inherit] opacity-[0.85] no-underline hover:opacity-100 hover:underline underline-offset-4';

export function SiteFooter(_props: ElementProps<typeof siteFooterAttributes>) {
  const { t, site, lang } = useElement();
  const newTab = <span className="exp-sr-only"> {t('footer.newTab')}</span>;
  const external = (key: ExternalKey) => (
    <a href={SITE.external[key]} target="_blank" rel="noopener noreferrer" part="link" className={LINK}>
      {t(`footer.links.${key}`)}
      {newTab}
    </a>
  );
  const pages = SITE_PAGES.map((p) => ({ path: p.path, label: t(p.label) }));
  return (
    <footer
      part="footer"
      className="bg-[color:var(--exp-footer-background,#0b2340)] text-[color:var(--exp-footer-color,#ffffff)]"
    >
      <div className="max-w-[1400px] mx-auto px-5 cq-md:px-8 pt-14 pb-8">
        <div className="grid gap-10 cq-md:grid-cols-2 cq-xl:grid-cols-[1.3fr_1fr_1fr_1fr]">
          <div className="flex flex-col gap-4">
            <a href={siteUrl('/', site, lang)} className="self-start">
              <Logo tone="light" label={t('header.home')} />
            </a>
            <p className="m-0 max-w-[320px] opacity-[0.85]">{t('footer.tagline')}</p>
            <address className="not-italic flex flex-col gap-2.5 text-[15px]" part="contact">
              <span className="flex gap-2">
                <PinIcon size={18} className="shrink-0 mt-0.5 opacity-80" />
                <span>
                  <span className="exp-sr-only">{t('footer.address')}: </span>
                  {SITE.office.street}
                  <br />
                  {SITE.office.postalCode} {SITE.office.city}, {SITE.office.country}
                </span>
              </span>
              <span className="flex gap-2 items-center">
                <PhoneIcon size={18} className="shrink-0 opacity-80" />
                <span className="exp-sr-only">{t('footer.phone')}: </span>
                <a href={telHref(SITE.phone)} className={LINK}>
                  {SITE.phone}
                </a>
              </span>
              <span className="flex gap-2 items-center">
                <MailIcon size={18} className="shrink-0 opacity-80" />
                <span className="exp-sr-only">{t('footer.email')}: </span>
                <a href={`mailto:${SITE.email}`} className={LINK}>
                  {SITE.email}
                </a>
              </span>
            </address>
          </div>
          <Column title={t('footer.explore')}>
            {pages.map((p) => (
              <li key={p.path}>
                <a href={siteUrl(p.path, site, lang)} part="link" className={LINK}>
                  {p.label}
                </a>
              </li>
            ))}
            <li>
              <a href={SITE.external.agentLogin} target="_blank" rel="noopener noreferrer" part="link" className={LINK}>
                {t('nav.agentLogin')}
                {newTab}
              </a>
            </li>
          </Column>
          <Column title={t('footer.company')}>
            {WORLDWIDE.map((key) => (
              <li key={key}>{external(key)}</li>
            ))}
          </Column>
          <div className="flex flex-col gap-8">
            <Column title={t('footer.legal')}>
              {PRIVACY.map((p) => (
                <li key={p.path}>
                  <a href={siteUrl(p.path, site, lang)} part="link" className={LINK}>
                    {t(p.label)}
                  </a>
                </li>
              ))}
              {LEGAL.map((key) => (
                <li key={key}>{external(key)}</li>
              ))}
            </Column>
            <div>
              <h2 className="m-0 mb-3 text-[13px] font-bold uppercase tracking-[0.12em] opacity-70">
                {t('footer.social')}
              </h2>
              <ul className="list-none m-0 p-0 flex gap-2">
                {SOCIAL.map(({ key, Icon }) => (
                  <li key={key}>
                    <a
                      href={SITE.social[key]}
                      target="_blank"
                      rel="noopener noreferrer"
                      part="social-link"
                      className="inline-flex items-center justify-center w-11 h-11 rounded-full border border-white/30 text-[color:inherit] hover:bg-white/10"
                    >
                      <Icon size={20} />
                      <span className="exp-sr-only">
                        {t(`footer.${key}`)} {t('footer.newTab')}
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </div>
        <p part="copyright" className="m-0 mt-12 pt-6 border-t border-white/15 text-[13px] opacity-75">
          {t('footer.copyright', { year: nowDate().getFullYear() })}
        </p>
      </div>
    </footer>
  );
}

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div part="column">
      <h2 className="m-0 mb-3 text-[13px] font-bold uppercase tracking-[0.12em] opacity-70">{title}</h2>
      <ul className="list-none m-0 p-0 flex flex-col gap-2.5 text-[15px]">{children}</ul>
    </div>
  );
}
