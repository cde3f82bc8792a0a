/**
 * /privacy/consent?token= (/es/privacidad/consentimiento): where a consent's one-click withdrawal
 * link lands (docs/privacy.md "Consents"), from our mails and the CRM's (the webhooks carry the
 * link). GET shows what she agreed to and when, with the one button that withdraws it (a mail
 * scanner that opens links withdraws nothing); POST withdraws, and so does a mail client's RFC 8058
 * one-click POST. Through the privacy function, as any client calls it.
 */
import { localizedPath } from '../../core/routes.ts';
import { TOKEN } from '../../core/functions/alerts/tokens.ts';
import { markup } from './html.tsx';
import { Section } from './alerts-page.tsx';
import { shownTime, type PrivacyCtx, type PrivacyPage } from './privacy-pages.tsx';

type Call = (body: Record<string, unknown>) => Promise<{ status: number; body: Record<string, unknown> }>;

interface Told {
  text: string;
  given_at: string;
  withdrawn_at: string | null;
}

/** A page that says something, and links her data's page (where every consent of hers is). */
function said(ctx: PrivacyCtx, key: string, status: number, consent?: Told, action?: boolean): PrivacyPage {
  const { t, lang } = ctx;
  const values = consent
    ? {
        text: consent.text,
        date: shownTime(lang, consent.given_at, 'long'),
        withdrawn: shownTime(lang, consent.withdrawn_at, 'long'),
      }
    : {};
  return {
    status,
    body: markup(
      <Section heading={t(`site.privacy.consent.${key}.heading`)} text={t(`site.privacy.consent.${key}.text`, values)}>
        {action ? (
          <form
            method="post"
            action={`${localizedPath('/privacy/consent', lang)}?token=${encodeURIComponent(ctx.token)}`}
            className="alert-page__form"
          >
            <button type="submit" className="btn btn--accent" name="do" value="withdraw">
              {t('site.privacy.consent.button')}
            </button>
          </form>
        ) : null}
        <p>
          <a href={localizedPath('/privacy/my-data', lang)}>{t('site.privacy.consent.myData')}</a>
        </p>
      </Section>,
    ),
  };
}

/** What the function answered, as a page: unknown (404), away (503), or the consent. */
function answered(
  ctx: PrivacyCtx,
  answer: { status: number; body: Record<string, unknown> },
  then: (consent: Told, already: boolean) => PrivacyPage,
): PrivacyPage {
  if (answer.status === 404) return said(ctx, 'invalid', 404);
  if (answer.status !== 200) return { status: 503, body: '' };
  return then(answer.body.consent as Told, answer.body.already === true);
}

export async function consentGet(ctx: PrivacyCtx, call: Call): Promise<PrivacyPage> {
  if (!TOKEN.test(ctx.token)) return said(ctx, 'invalid', 404);
  return answered(ctx, await call({ action: 'consent', token: ctx.token }), (consent) =>
    consent.withdrawn_at ? said(ctx, 'already', 200, consent) : said(ctx, 'form', 200, consent, true),
  );
}

/** The button, or a mail client's one-click POST (`List-Unsubscribe=One-Click`): withdrawn at once. */
export async function consentPost(ctx: PrivacyCtx, call: Call): Promise<PrivacyPage> {
  if (!TOKEN.test(ctx.token)) return said(ctx, 'invalid', 404);
  return answered(ctx, await call({ action: 'withdraw', token: ctx.token }), (consent, already) =>
    said(ctx, already ? 'already' : 'done', 200, consent),
  );
}
