/**
 * The privacy notice (docs/privacy.md), /privacy (/es/privacidad), written by the server into the
 * built page so a crawler, a link preview and a browser without scripts read it whole: every item
 * Ecuador's LOPDP (Art. 12) asks a controller to tell, with the operator's details and retention
 * periods from the configuration.
 */
import type { Lang } from '../../core/lang.ts';
import { localizedPath } from '../../core/routes.ts';
import { NOTICE_SECTIONS, PRIVACY_NOTICE, type PrivacySettings } from '../../core/protocol/privacy.ts';
import type { Translate } from '../../core/translate.ts';
import { markup } from './html.tsx';

/** The notice's content (in the page's container): every item of Art. 12, each a section with its heading. */
export function privacyNotice(t: Translate, lang: Lang, settings: PrivacySettings): string {
  const values = {
    controller: settings.controller,
    address: settings.address,
    email: settings.email,
    phone: settings.phone,
    dpo: settings.dpo ?? '',
    leadsMonths: settings.retention.leadsMonths,
    mailsDays: settings.retention.mailsDays,
    pendingDays: settings.retention.pendingDays,
  };
  const sections = NOTICE_SECTIONS.map((key) => (key === 'dpo' && !settings.dpo ? 'dpoNone' : key));
  return markup(
    <article className="alert-page privacy-notice" aria-labelledby="privacy-heading">
      <h1 id="privacy-heading">{t('site.privacy.notice.title')}</h1>
      <p>{t('site.privacy.notice.intro')}</p>
      <p className="privacy-notice__version">
        {t('site.privacy.notice.version', {
          version: PRIVACY_NOTICE.version,
          date: new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-GB', {
            dateStyle: 'long',
            timeZone: 'UTC',
          }).format(new Date(`${PRIVACY_NOTICE.since}T12:00:00Z`)),
        })}
      </p>
      {sections.map((key) => (
        <section key={key} id={key === 'dpoNone' ? 'dpo' : key} aria-labelledby={`privacy-${key}`}>
          <h2 id={`privacy-${key}`}>{t(`site.privacy.notice.sections.${key}.title`)}</h2>
          <p>{t(`site.privacy.notice.sections.${key}.text`, values)}</p>
        </section>
      ))}
      <p>
        <a className="btn btn--primary" href={localizedPath('/privacy/my-data', lang)}>
          {t('site.privacy.notice.myData')}
        </a>
      </p>
    </article>,
  );
}
