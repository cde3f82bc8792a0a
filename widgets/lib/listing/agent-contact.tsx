/**
 * The listing agent in the detail dialog: photo (initials when there is none or it fails), name,
 * e-mail and phone as links, WhatsApp with the normalised number, and copy buttons that say so.
 */
import { useEffect, useId, useState } from 'react';
import { copyText } from '../clipboard.ts';
import { useElement } from '../element.tsx';
import { initials, normalisePhone, telHref, whatsappHref } from '../../../core/protocol/format.ts';
import { CheckIcon } from '../ui/icons/check.tsx';
import { CopyIcon } from '../ui/icons/copy.tsx';
import { MailIcon } from '../ui/icons/mail.tsx';
import { PhoneIcon } from '../ui/icons/phone.tsx';
import { WhatsAppIcon } from '../ui/icons/whats-app.tsx';
import type { PropertyAgent } from '../../../core/protocol/listing.ts';
import { EMAIL_BREAKS, withBreaks } from '../../../core/view/line-breaks.tsx';

export function AgentAvatar({ name, photo, size = 56 }: { name: string; photo: string | undefined; size?: number }) {
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [photo]);
  const box = { width: `${size}px`, height: `${size}px` };
  if (photo && !failed) {
    return (
      <img
        src={photo}
        alt=""
        style={box}
        className="shrink-0 rounded-full object-cover bg-surface-subtle"
        onError={() => setFailed(true)}
        loading="lazy"
        decoding="async"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      style={{ ...box, fontSize: `${Math.round(size * 0.36)}px` }}
      className="shrink-0 rounded-full bg-primary text-primary-contrast font-semibold flex items-center justify-center"
      part="initials"
    >
      {initials(name)}
    </span>
  );
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useElement();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      onClick={async () => setState((await copyText(text)) ? 'copied' : 'failed')}
      className="inline-flex items-center gap-1.5 rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm text-ink cursor-pointer hover:bg-surface-subtle"
    >
      {state === 'copied' ? <CheckIcon size={16} className="text-success" /> : <CopyIcon size={16} />}
      <span aria-live="polite">
        {state === 'copied' ? t('agent.copied') : state === 'failed' ? t('agent.copyFailed') : label}
      </span>
    </button>
  );
}

export function AgentContact({
  agent,
  countryCode,
  headingLevel: Heading = 'h3',
}: {
  agent: PropertyAgent;
  countryCode: string;
  headingLevel?: 'h2' | 'h3';
}) {
  const { t } = useElement();
  const headingId = useId();
  const phone = normalisePhone(agent.phone, countryCode);
  const whatsapp = whatsappHref(agent.phone, countryCode);
  return (
    <section
      className="rounded-brand border border-line bg-surface-subtle p-4 flex flex-col gap-3"
      part="agent"
      aria-labelledby={headingId}
    >
      <Heading id={headingId} className="m-0 text-sm font-semibold uppercase tracking-wide text-ink-muted">
        {t('agent.heading')}
      </Heading>
      <div className="flex items-center gap-3">
        <AgentAvatar name={agent.name} photo={agent.photo} />
        <div className="min-w-0">
          <p className="m-0 font-semibold text-ink break-words">{agent.name}</p>
          {agent.location ? <p className="m-0 text-sm text-ink-muted truncate">{agent.location}</p> : null}
        </div>
      </div>
      <ContactList email={agent.email} phone={agent.phone} className="gap-1.5 text-sm" iconSize={16} />
      <div className="flex flex-wrap gap-2">
        {whatsapp ? (
          <a
            href={whatsapp}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1.5 rounded-md bg-[#1f7a4d] px-2.5 py-1.5 text-sm font-medium text-white no-underline hover:bg-[#17643e]"
          >
            <WhatsAppIcon size={16} />
            {t('agent.whatsapp')}
          </a>
        ) : null}
        {phone ? <CopyButton text={`+${phone}`} label={t('agent.copyPhone')} /> : null}
        {agent.email ? <CopyButton text={agent.email} label={t('agent.copyEmail')} /> : null}
      </div>
    </section>
  );
}

/** An agent's e-mail and phone as mailto: and tel: links, each after its icon. */
export function ContactList({
  email,
  phone,
  className = '',
  iconSize = 16,
}: {
  email: string;
  phone: string;
  className?: string;
  iconSize?: number;
}) {
  if (!email && !phone) return null;
  return (
    <ul className={`list-none m-0 p-0 flex flex-col ${className}`}>
      {email ? (
        <li className="flex items-center gap-2 min-w-0">
          <MailIcon size={iconSize} className="shrink-0 text-ink-muted" />
          <a
            href={`mailto:${email}`}
            className="min-w-0 text-primary underline-offset-2 hover:underline [overflow-wrap:anywhere]"
          >
            {withBreaks(email, EMAIL_BREAKS)}
          </a>
        </li>
      ) : null}
      {phone ? (
        <li className="flex items-center gap-2">
          <PhoneIcon size={iconSize} className="shrink-0 text-ink-muted" />
          <a href={telHref(phone)} className="text-primary underline-offset-2 hover:underline">
            {phone}
          </a>
        </li>
      ) : null}
    </ul>
  );
}
