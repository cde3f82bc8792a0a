/**
 * "Get alerts for this search" (docs/decisions.md #23): the search in words, the e-mail, how often
 * (as they come, daily, weekly) and the mails' language, checked as the function checks them
 * (protocol/alerts.ts). Or "Follow this market" (docs/market.md): the place's report, monthly, so
 * no frequency to choose. Sent, it says to look for the confirmation mail: nothing else is sent
 * until the address confirms. Loaded on first use (alert-button.tsx), with its own English texts.
 */
import { pageAttribution } from '../../../core/protocol/attribution.ts';
import { useId, useRef, useState, type FormEvent } from 'react';
import texts from 'virtual:exp-texts/lazy/lib/alerts/alert-dialog';
import {
  ALERT_FREQUENCIES,
  checkAlertEmail,
  describeAlert,
  type AlertFrequency,
  type MarketFollow,
} from '../../../core/protocol/alerts.ts';
import { filterArgs, type SearchFilters } from '../../../core/protocol/filters.ts';
import { requestAlerts } from '../data/alerts.ts';
import { functionsClient } from '../data/functions.ts';
import { newIdempotencyKey } from '../data/inquiry.ts';
import { useElement } from '../element.tsx';
import { addTexts } from '../i18n.ts';
import { Dialog, DialogClose } from '../ui/dialog.tsx';
import { FormField } from '../ui/form-field.tsx';
import { Honeypot } from '../ui/honeypot.tsx';
import { PrivacyLine } from '../inquiry/privacy.tsx';
import type { Lang } from '../../../core/lang.ts';

await addTexts(texts);

const ERROR_KEYS: Record<string, string> = {
  required: 'alerts.errors.emailRequired',
  invalid: 'alerts.errors.emailInvalid',
  tooLong: 'alerts.errors.emailTooLong',
};

export interface AlertDialogProps {
  open: boolean;
  filters: SearchFilters;
  /** a market follow instead of the search's alerts */
  market?: MarketFollow | undefined;
  onClose: () => void;
}

export function AlertDialog({ open, filters, market, onClose }: AlertDialogProps) {
  const { t, api, lang, host, leadAgentId } = useElement();
  const id = useId();
  const [email, setEmail] = useState('');
  const [frequency, setFrequency] = useState<AlertFrequency>('daily');
  const [mailLang, setMailLang] = useState<Lang>(lang);
  const [honeypot, setHoneypot] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const key = useRef(newIdempotencyKey());
  const emailRef = useRef<HTMLInputElement>(null);
  const summary = describeAlert({ filters: filterArgs(filters), market: market ?? null }, (k, p) => t(k, p));

  const close = () => {
    onClose();
    if (status === 'sent') {
      setStatus('idle');
      setEmail('');
      key.current = newIdempotencyKey();
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (status === 'sending') return;
    const found = checkAlertEmail(email);
    setError(found ? (ERROR_KEYS[found] ?? 'alerts.errors.emailInvalid') : null);
    setProblem(null);
    if (found) {
      emailRef.current?.focus();
      return;
    }
    setStatus('sending');
    const result = await requestAlerts(functionsClient(api), {
      email: email.trim(),
      ...(market ? { market: { place: market.place, typeGroup: market.type_group } } : { filters, frequency }),
      lang: mailLang,
      idempotencyKey: key.current,
      website: honeypot,
      ...(leadAgentId ? { leadAgentId } : {}),
      source: pageAttribution(location.href, host.localName),
    });
    if (result.ok) {
      setStatus('sent');
      return;
    }
    if (result.reason === 'invalid' && result.fields.email) {
      setError(ERROR_KEYS[result.fields.email] ?? 'alerts.errors.emailInvalid');
      setStatus('idle');
      emailRef.current?.focus();
      return;
    }
    setProblem(result.reason === 'rate-limited' ? 'alerts.errors.rateLimited' : 'alerts.errors.failed');
    setStatus('failed');
  };

  const titleId = `${id}-title`;
  return (
    <Dialog open={open} onClose={close} labelledBy={titleId} part="alerts" className="max-w-[480px]">
      <div className="flex items-center justify-between gap-3 border-b border-line px-4 py-3">
        <h2 id={titleId} className="m-0 text-lg font-bold text-ink">
          {t(status === 'sent' ? 'alerts.sent.title' : market ? 'follow.title' : 'alerts.title')}
        </h2>
        <DialogClose onClose={close} />
      </div>
      <div className="overflow-y-auto p-4 cq-md:p-6 flex flex-col gap-4">
        {status === 'sent' ? (
          <>
            <p className="m-0 text-ink" role="status">
              {t(market ? 'follow.sent' : 'alerts.sent.text', { email: email.trim() })}
            </p>
            <button
              type="button"
              onClick={close}
              className="self-start rounded-md bg-primary px-4 py-2.5 text-[15px] font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover"
            >
              {t('alerts.sent.close')}
            </button>
          </>
        ) : (
          <form noValidate onSubmit={submit} className="flex flex-col gap-4" part="alert-form">
            <p className="m-0 text-sm text-ink-muted">{t(market ? 'follow.intro' : 'alerts.intro')}</p>
            <div className="rounded-md bg-surface-subtle px-3 py-2">
              <p className="m-0 text-xs font-semibold uppercase tracking-wide text-ink-muted">
                {t(market ? 'follow.label' : 'alerts.searchLabel')}
              </p>
              <p className="m-0 text-sm font-medium text-ink">{summary}</p>
            </div>
            <FormField controlId={`${id}-email`} label={t('alerts.email')} error={error ? t(error) : undefined}>
              <input
                ref={emailRef}
                id={`${id}-email`}
                name="email"
                type="email"
                autoComplete="email"
                inputMode="email"
                required
                aria-required="true"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-email-error` : undefined}
                value={email}
                onChange={(e) => {
                  setEmail(e.target.value);
                  if (error) setError(null);
                }}
                className={`w-full rounded-md border bg-surface px-3 py-2 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${error ? 'border-danger' : 'border-line'}`}
              />
            </FormField>
            {market ? (
              <p className="m-0 text-sm text-ink">{t('follow.monthly')}</p>
            ) : (
              <fieldset className="m-0 p-0 border-0 flex flex-col gap-2">
                <legend className="p-0 mb-1 text-sm font-medium text-ink">{t('alerts.frequency')}</legend>
                {ALERT_FREQUENCIES.map((f) => (
                  <label key={f} className="flex items-center gap-2 text-[15px] text-ink cursor-pointer">
                    <input
                      type="radio"
                      name="frequency"
                      value={f}
                      checked={frequency === f}
                      onChange={() => setFrequency(f)}
                      className="w-4 h-4 accent-primary"
                    />
                    {t(`alerts.frequencies.${f}`)}
                  </label>
                ))}
              </fieldset>
            )}
            <FormField controlId={`${id}-lang`} label={t('alerts.language')}>
              <select
                id={`${id}-lang`}
                value={mailLang}
                onChange={(e) => setMailLang(e.target.value as Lang)}
                className="h-10 rounded-md border border-line bg-surface px-3 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30"
              >
                <option value="en">{t('alerts.languages.en')}</option>
                <option value="es">{t('alerts.languages.es')}</option>
              </select>
            </FormField>
            <Honeypot id={id} value={honeypot} onChange={setHoneypot} label={t('alerts.honeypot')} />
            {problem ? (
              <p
                role="alert"
                className="m-0 rounded-md border border-danger bg-surface px-3 py-2 text-sm text-danger"
                part="alert-error"
              >
                {t(problem)}
              </p>
            ) : null}
            <button
              type="submit"
              disabled={status === 'sending'}
              part="submit"
              className="inline-flex items-center justify-center gap-2 rounded-md bg-primary px-4 py-2.5 text-[15px] font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover disabled:cursor-wait disabled:opacity-70"
            >
              {t(status === 'sending' ? 'alerts.sending' : market ? 'follow.submit' : 'alerts.submit')}
            </button>
            <PrivacyLine says="alerts.privacy" notice="alerts.privacyNotice" />
          </form>
        )}
      </div>
    </Dialog>
  );
}
