/**
 * The inquiry form (docs/product.md §3, §4, §5): name and e-mail required, phone and message optional,
 * translated validation, autocomplete, a honeypot. States: idle, sending ('Sending...', disabled),
 * success (toast, cleared, onSent), error (toast and an alert in place, what was typed kept).
 * Shared by <exp-inquiry-form>, the property detail dialog and the agent profile.
 */
import {
  useId,
  useRef,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
} from 'react';
import { LIMITS, type InquiryBody } from '../../../core/protocol/inquiry.ts';
import { formatPrice } from '../../../core/protocol/format.ts';
import type { Property } from '../../../core/protocol/listing.ts';
import { functionsClient } from '../data/functions.ts';
import { newIdempotencyKey, sendInquiry, type InquiryField, type InquiryResult } from '../data/inquiry.ts';
import { useElement } from '../element.tsx';
import { pageAttribution } from '../../../core/protocol/attribution.ts';
import { emit } from '../events.ts';
import { EMPTY_VALUES, refusedFields, useContactFields, validateInquiry } from './fields.ts';
import { FormField } from '../ui/form-field.tsx';
import { Honeypot } from '../ui/honeypot.tsx';
import { LEAD_CONSENTS, type LeadConsent } from '../../../core/protocol/privacy.ts';
import { ConsentBoxes, PrivacyLine } from './privacy.tsx';

export interface InquiryTarget {
  propertyId?: string;
  propertyTitle: string;
  propertyAddress: string;
  /** formatted price, '' for an inquiry about an agent */
  propertyPrice: string;
  /** the agent's e-mail as shown on the page */
  recipientEmail: string;
  agentId?: string;
  /** the listing is a new development's (docs/projects.md): asked about as one, not as "this property" */
  project?: boolean;
}

/** An inquiry about a listing: its facts as the page shows them, and its agent. */
export function listingTarget(
  p: Pick<Property, 'id' | 'title' | 'address' | 'city' | 'price' | 'agent' | 'operation'>,
): InquiryTarget {
  return {
    ...(p.operation === 'project' ? { project: true } : {}),
    propertyId: p.id,
    propertyTitle: p.title,
    propertyAddress: [p.address, p.city].filter(Boolean).join(', '),
    propertyPrice: formatPrice(p.price),
    recipientEmail: p.agent?.email ?? '',
    ...(p.agent?.id ? { agentId: p.agent.id } : {}),
  };
}

export interface InquirySentDetail {
  /** the stored inquiry's id */
  id: string;
  /** the listing asked about, when there is one */
  propertyId: string | null;
  /** the agent asked, when the inquiry is addressed to an agent */
  agentId: string | null;
}

declare module '../events.ts' {
  interface ExpEventMap {
    'exp-inquiry-sent': InquirySentDetail;
  }
}

export interface InquiryFormProps {
  target: InquiryTarget;
  onSent?: (detail: InquirySentDetail) => void;
  /** heading shown above the form; none when the surrounding UI has one */
  heading?: string;
  /** the heading's level where it sits (default h3) */
  headingLevel?: 'h2' | 'h3';
  submitLabel?: string;
  /** what the form asks before the contact fields (a visit's mode and times) */
  children?: ReactNode;
  /** what it sends beside them (the `visit` part); null when that part is not ready (it says why itself) */
  extra?: () => Pick<InquiryBody, 'visit'> | null;
  /** the function refused what `extra` sent (a visit's times were booked meanwhile, the listing left) */
  onUnavailable?: (result: Extract<InquiryResult, { reason: 'unavailable' }>) => void;
  /** the toast's texts once sent (translation keys) */
  sentKeys?: { title: string; text: string };
}

export function InquiryForm({
  target,
  onSent,
  heading,
  headingLevel: Heading = 'h3',
  submitLabel,
  children,
  extra,
  onUnavailable,
  sentKeys,
}: InquiryFormProps) {
  const { t, api, toaster, host, lang, leadAgentId } = useElement();
  const id = useId();
  const [honeypot, setHoneypot] = useState('');
  // what she consents to besides her request: nothing unless she ticks it (docs/privacy.md "Consents")
  const [consents, setConsents] = useState<ReadonlySet<LeadConsent>>(new Set());
  const { values, setValues, errors, setErrors, set } = useContactFields();
  const [status, setStatus] = useState<'idle' | 'sending' | 'error'>('idle');
  // one key per inquiry: resending the same one (double click, retry) is recognised by the server
  const key = useRef(newIdempotencyKey());
  const refs = useRef<Partial<Record<InquiryField, HTMLInputElement | HTMLTextAreaElement | null>>>({});

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (status === 'sending') return;
    const more = extra ? extra() : {};
    const found = validateInquiry(values);
    setErrors(found);
    const firstInvalid = (['name', 'email', 'phone', 'message'] as const).find((f) => found[f]);
    if (more === null) return;
    if (firstInvalid) {
      refs.current[firstInvalid]?.focus();
      return;
    }
    setStatus('sending');
    const result = await sendInquiry(functionsClient(api), {
      name: values.name.trim(),
      email: values.email.trim(),
      phone: values.phone.trim(),
      message: values.message.trim(),
      propertyTitle: target.propertyTitle,
      propertyAddress: target.propertyAddress,
      propertyPrice: target.propertyPrice,
      recipientEmail: target.recipientEmail,
      ...(target.propertyId ? { propertyId: target.propertyId } : {}),
      ...(target.agentId ? { agentId: target.agentId } : {}),
      ...(leadAgentId ? { leadAgentId } : {}),
      source: pageAttribution(location.href, host.localName),
      idempotencyKey: key.current,
      lang,
      website: honeypot,
      ...(consents.size ? { consents: [...consents] } : {}),
      ...more,
    });
    if (result.ok) {
      const detail: InquirySentDetail = {
        id: result.id,
        propertyId: target.propertyId ?? null,
        agentId: target.agentId ?? null,
      };
      toaster.show({
        title: { key: sentKeys?.title ?? 'inquiry.successTitle' },
        description: { key: sentKeys?.text ?? 'inquiry.successText' },
      });
      setValues(EMPTY_VALUES);
      setConsents(new Set());
      setErrors({});
      setStatus('idle');
      key.current = newIdempotencyKey();
      emit(host, 'exp-inquiry-sent', detail);
      onSent?.(detail);
      return;
    }
    if (result.reason === 'unavailable') {
      setStatus('idle');
      onUnavailable?.(result);
      return;
    }
    // a refusal of fields the form shows is said at each; one of others (a visit's) falls to the general error
    const mapped = result.reason === 'invalid' ? refusedFields(result.fields) : {};
    if (Object.keys(mapped).length) {
      setErrors(mapped);
      setStatus('idle');
      return;
    }
    setStatus('error');
    toaster.show({
      title: { key: 'common.error' },
      description: { key: result.reason === 'rate-limited' ? 'inquiry.rateLimited' : 'inquiry.errorText' },
      variant: 'destructive',
    });
  };

  const field = (name: InquiryField, label: string, input: ReactElement) => (
    <FormField
      controlId={`${id}-${name}`}
      label={label}
      error={errors[name] ? t(errors[name], { max: LIMITS[name] }) : undefined}
    >
      {input}
    </FormField>
  );
  const inputClass = (name: InquiryField) =>
    `w-full rounded-md border bg-surface px-3 py-2 text-[15px] text-ink placeholder:text-ink-muted outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${errors[name] ? 'border-danger' : 'border-line'}`;
  const a11y = (name: InquiryField) => ({
    id: `${id}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });

  /** A one-line field: its label, its input (`props`: its kind; `slack`: how far past the limit it may be typed, for the error to say so) and its error. */
  const textField = (
    name: 'name' | 'email' | 'phone',
    label: string,
    props: InputHTMLAttributes<HTMLInputElement>,
    slack: number,
  ) =>
    field(
      name,
      label,
      <input
        {...a11y(name)}
        ref={(el) => {
          refs.current[name] = el;
        }}
        name={name}
        maxLength={LIMITS[name] + slack}
        value={values[name]}
        onChange={(e) => set(name, e.target.value)}
        className={inputClass(name)}
        {...props}
      />,
    );

  return (
    <form
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-3"
      part="inquiry-form"
      aria-labelledby={heading ? `${id}-heading` : undefined}
    >
      {heading ? (
        <Heading id={`${id}-heading`} className="m-0 text-lg font-semibold text-ink">
          {heading}
        </Heading>
      ) : null}
      {children}
      {textField(
        'name',
        t('inquiry.name'),
        { type: 'text', autoComplete: 'name', required: true, 'aria-required': true },
        20,
      )}
      {textField(
        'email',
        t('inquiry.email'),
        { type: 'email', autoComplete: 'email', inputMode: 'email', required: true, 'aria-required': true },
        20,
      )}
      {textField('phone', t('inquiry.phone'), { type: 'tel', autoComplete: 'tel', inputMode: 'tel' }, 10)}
      {field(
        'message',
        t('inquiry.message'),
        <textarea
          {...a11y('message')}
          ref={(el) => {
            refs.current.message = el;
          }}
          name="message"
          rows={4}
          maxLength={LIMITS.message}
          // about a listing, or to an agent or the team (an agent's page, a partner's contact page)
          placeholder={t(
            target.propertyId
              ? target.project
                ? 'inquiry.messagePlaceholderProject'
                : 'inquiry.messagePlaceholder'
              : 'inquiry.messagePlaceholderContact',
          )}
          value={values.message}
          onChange={(e) => set('message', e.target.value)}
          className={`${inputClass('message')} resize-y min-h-[96px]`}
        />,
      )}
      <Honeypot id={id} value={honeypot} onChange={setHoneypot} />
      <ConsentBoxes purposes={LEAD_CONSENTS} given={consents} onChange={setConsents} />
      {status === 'error' ? (
        <p
          role="alert"
          className="m-0 rounded-md border border-danger bg-surface px-3 py-2 text-sm text-danger"
          part="inquiry-error"
        >
          {t('inquiry.errorText')}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={status === 'sending'}
        aria-disabled={status === 'sending'}
        part="submit"
        className="mt-1 inline-flex items-center justify-center gap-2 rounded-md bg-primary px-4 py-2.5 text-[15px] font-semibold text-primary-contrast cursor-pointer hover:bg-primary-hover disabled:cursor-wait disabled:opacity-70"
      >
        {status === 'sending' ? t('inquiry.sending') : (submitLabel ?? t('inquiry.submit'))}
      </button>
      <PrivacyLine says="inquiry.privacy" notice="inquiry.privacyNotice" />
    </form>
  );
}
