/**
 * "Get a professional valuation" (docs/valuation.md "The seller's lead"): name, e-mail and phone
 * (an agent calls back), when they plan to sell, whether they also buy, and a message; sent as an
 * inquiry with the home's facts, so it is stored before any delivery, once however often it is
 * sent, and goes to the element's lead-agent-id, else the agent who serves the place, else the
 * team. With "E-mail me this estimate every month", the home report is asked for too (double
 * opt-in: nothing comes until its link is opened).
 */
import { pageAttribution } from '../../core/protocol/attribution.ts';
import { useId, useRef, useState, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import { SELLER_TIMELINES, type Estimate, type HomeFacts, type SellerTimeline } from '../../core/protocol/valuation.ts';
import { requestAlerts } from '../lib/data/alerts.ts';
import { functionsClient } from '../lib/data/functions.ts';
import { newIdempotencyKey, sendInquiry, type InquiryField } from '../lib/data/inquiry.ts';
import { useElement } from '../lib/element.tsx';
import { emit } from '../lib/events.ts';
import { refusedFields, useContactFields, validateInquiry } from '../lib/inquiry/fields.ts';
import { FormField } from '../lib/ui/form-field.tsx';
import { Honeypot } from '../lib/ui/honeypot.tsx';
import { LIMITS } from '../../core/protocol/inquiry.ts';
import { SelectField } from '../lib/ui/select-field.tsx';
import { LEAD_CONSENTS, type ConsentPurpose, type LeadConsent } from '../../core/protocol/privacy.ts';
import { ConsentBoxes, PrivacyLine } from '../lib/inquiry/privacy.tsx';

/** The seller's boxes: the monthly report of her home (its own request), then the lead's. */
const SELLER_CONSENTS: readonly ConsentPurpose[] = ['home_report', ...LEAD_CONSENTS];

export interface SellerLeadDetail {
  /** the stored inquiry's id */
  id: string;
  place: string | null;
  value: number | null;
}

declare module '../lib/events.ts' {
  interface ExpEventMap {
    'exp-seller-lead-sent': SellerLeadDetail;
  }
}

const inputClass = (bad: boolean) =>
  `w-full rounded-md border bg-surface px-3 py-2 text-[15px] text-ink outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${bad ? 'border-danger' : 'border-line'}`;

export function SellerLead({ facts, estimate }: { facts: HomeFacts; estimate: Estimate }) {
  const { t, api, lang, host, leadAgentId, shadowRoot } = useElement();
  const id = useId();
  const [timeline, setTimeline] = useState<SellerTimeline>('months3');
  const [alsoBuying, setAlsoBuying] = useState(false);
  // nothing unless she ticks it (docs/privacy.md "Consents")
  const [consents, setConsents] = useState<ReadonlySet<ConsentPurpose>>(new Set());
  const report = consents.has('home_report');
  const [honeypot, setHoneypot] = useState('');
  const { values, errors, setErrors, set } = useContactFields();
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent' | 'failed' | 'limited'>('idle');
  const [sentTo, setSentTo] = useState({ email: '', report: false });
  const key = useRef(newIdempotencyKey());
  const reportKey = useRef(newIdempotencyKey());
  const place = estimate.place?.name ?? t('valuation.yourHome');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (status === 'sending') return;
    const found = validateInquiry(values);
    // an agent calls back: the phone is needed
    if (!values.phone.trim()) found.phone = 'inquiry.errors.required';
    setErrors(found);
    const first = (['name', 'email', 'phone', 'message'] as const).find((f) => found[f]);
    if (first) {
      shadowRoot.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setStatus('sending');
    const functions = functionsClient(api);
    const source = pageAttribution(location.href, host.localName);
    const result = await sendInquiry(functions, {
      name: values.name.trim(),
      email: values.email.trim(),
      phone: values.phone.trim(),
      message: values.message.trim(),
      propertyTitle: '',
      propertyAddress: '',
      propertyPrice: '',
      recipientEmail: '',
      seller: { facts, timeline, alsoBuying },
      consents: LEAD_CONSENTS.filter((c: LeadConsent) => consents.has(c)),
      ...(leadAgentId ? { leadAgentId } : {}),
      source,
      idempotencyKey: key.current,
      lang,
      website: honeypot,
    });
    if (!result.ok) {
      if (result.reason === 'invalid' && Object.keys(result.fields).length) {
        const mapped = refusedFields(result.fields);
        setErrors(mapped);
        setStatus(Object.keys(mapped).length ? 'idle' : 'failed');
        return;
      }
      setStatus(result.reason === 'rate-limited' ? 'limited' : 'failed');
      return;
    }
    // the monthly report: its own request, confirmed by its own mail
    const reported = report
      ? (
          await requestAlerts(functions, {
            email: values.email.trim(),
            home: facts,
            lang,
            idempotencyKey: reportKey.current,
            website: honeypot,
            ...(leadAgentId ? { leadAgentId } : {}),
            source,
          })
        ).ok
      : false;
    setSentTo({ email: values.email.trim(), report: reported });
    setStatus('sent');
    emit(host, 'exp-seller-lead-sent', { id: result.id, place: estimate.place?.path ?? null, value: estimate.value });
  };

  const field = (name: InquiryField, label: string, control: ReactNode) => (
    <FormField
      controlId={`${id}-${name}`}
      label={label}
      error={errors[name] ? t(errors[name], { max: LIMITS[name] }) : undefined}
    >
      {control}
    </FormField>
  );
  const a11y = (name: InquiryField) => ({
    id: `${id}-${name}`,
    name,
    value: values[name],
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    className: inputClass(Boolean(errors[name])),
  });

  // the three ways to reach the seller, each needed: alike but for the kind of text
  const contact = (name: 'name' | 'email' | 'phone', label: string, kind: InputHTMLAttributes<HTMLInputElement>) =>
    field(
      name,
      label,
      <input {...a11y(name)} {...kind} required aria-required="true" onChange={(e) => set(name, e.target.value)} />,
    );

  if (status === 'sent') {
    return (
      <section
        className="rounded-brand border border-line bg-surface p-4 cq-md:p-6 flex flex-col gap-2"
        part="lead"
        aria-labelledby={`${id}-sent`}
      >
        <h3 id={`${id}-sent`} className="m-0 text-lg font-semibold">
          {t('valuation.lead.sentTitle')}
        </h3>
        <p className="m-0" role="status">
          {t('valuation.lead.sentText', { email: sentTo.email })}
          {sentTo.report ? ` ${t('valuation.lead.reportSent', { email: sentTo.email })}` : ''}
        </p>
      </section>
    );
  }

  return (
    <section
      className="rounded-brand border border-line bg-surface p-4 cq-md:p-6 flex flex-col gap-3"
      part="lead"
      aria-labelledby={`${id}-heading`}
    >
      <h3 id={`${id}-heading`} className="m-0 text-lg font-semibold">
        {t('valuation.lead.heading')}
      </h3>
      <p className="m-0 text-ink-muted">{t('valuation.lead.intro', { place })}</p>
      <form noValidate onSubmit={submit} className="grid gap-3 cq-md:grid-cols-2" part="lead-form">
        {contact('name', t('valuation.lead.name'), { type: 'text', autoComplete: 'name' })}
        {contact('email', t('valuation.lead.email'), { type: 'email', autoComplete: 'email', inputMode: 'email' })}
        {contact('phone', t('valuation.lead.phone'), { type: 'tel', autoComplete: 'tel', inputMode: 'tel' })}
        <SelectField
          id={`${id}-timeline`}
          label={t('valuation.lead.timeline')}
          value={timeline}
          onChange={(v) => setTimeline(v as SellerTimeline)}
          selectClassName={`exp-select h-11 pr-8 ${inputClass(false)}`}
          options={SELLER_TIMELINES.map((k) => ({ value: k, label: t(`valuation.timelines.${k}`) }))}
        />
        <div className="cq-md:col-span-2">
          {field(
            'message',
            t('valuation.lead.message'),
            <textarea {...a11y('message')} rows={3} onChange={(e) => set('message', e.target.value)} />,
          )}
        </div>
        <label className="cq-md:col-span-2 inline-flex items-center gap-2 text-[15px] cursor-pointer">
          <input
            type="checkbox"
            className="w-4 h-4 accent-primary"
            checked={alsoBuying}
            onChange={(e) => setAlsoBuying(e.target.checked)}
          />
          {t('valuation.lead.alsoBuying')}
        </label>
        <ConsentBoxes className="cq-md:col-span-2" purposes={SELLER_CONSENTS} given={consents} onChange={setConsents} />
        <Honeypot id={id} value={honeypot} onChange={setHoneypot} />
        {status === 'failed' || status === 'limited' ? (
          <p
            role="alert"
            className="cq-md:col-span-2 m-0 rounded-md border border-danger bg-surface px-3 py-2 text-sm text-danger"
            part="lead-error"
          >
            {t(status === 'limited' ? 'valuation.lead.rateLimited' : 'valuation.lead.failed')}
          </p>
        ) : null}
        <div className="cq-md:col-span-2 flex flex-col gap-2">
          <button
            type="submit"
            disabled={status === 'sending'}
            part="lead-submit"
            className="self-start inline-flex items-center justify-center h-11 rounded-md bg-primary px-5 text-[15px] font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover disabled:cursor-wait disabled:opacity-70"
          >
            {t(status === 'sending' ? 'valuation.lead.sending' : 'valuation.lead.submit')}
          </button>
          <PrivacyLine says="inquiry.privacy" notice="inquiry.privacyNotice" />
        </div>
      </form>
    </section>
  );
}
