-- One outbox for every e-mail the site sends (inquiries, alert confirmations, alerts, webhooks). A mail is
-- queued in the same transaction as what it is about, then delivered from here by a worker that
-- claims it with a lease (a token, renewed while the SMTP server is talking), marks it sent, and on
-- a passing failure retries with backoff. The message is composed when it is sent, from `kind`,
-- `ref_id` and `payload`, so a mail whose subject went away (an alert unsubscribed) is dropped.
-- See docs/architecture.md, "Mail".

create table internal.mail_outbox (
  id bigint generated always as identity primary key,
  kind text not null,
  -- what the mail is about (an inquiry id, ...): one mail per kind and ref
  ref_id text not null,
  recipient text not null,
  payload jsonb not null default '{}'::jsonb,
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'dropped')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default internal.now(),
  locked_until timestamptz,
  lease_token uuid,
  last_error text,
  -- failures that only time can fix (SMTP away); a successful probe of SMTP makes these due at once
  transient_failure boolean not null default false,
  message_id text,
  created_at timestamptz not null default internal.now(),
  sent_at timestamptz,
  unique (kind, ref_id)
);

alter table internal.mail_outbox enable row level security;

comment on table internal.mail_outbox is 'Every e-mail the site sends, queued with what it is about and delivered from here (leased, retried, never twice).';

create index mail_outbox_pending on internal.mail_outbox (next_attempt_at) where status = 'pending';

create index mail_outbox_sending on internal.mail_outbox (locked_until) where status = 'sending';

create index mail_outbox_webhooks on internal.mail_outbox (recipient, status) where kind = 'webhook';

-- Queues a mail in the caller's transaction (`delay_seconds`: not before then, a digest's hour); a
-- second queueing of the same kind and ref is ignored. True when queued. The one way a mail is
-- queued: our functions call it (core/functions/outbox/store.ts) and so do the database's own.
create or replace function internal.enqueue_mail(kind text, ref_id text, recipient text, payload jsonb default '{}', delay_seconds double precision default 0)
returns boolean language sql volatile set search_path = '' as $$
  with queued as (
    insert into internal.mail_outbox (kind, ref_id, recipient, payload, next_attempt_at)
    values (enqueue_mail.kind, enqueue_mail.ref_id, enqueue_mail.recipient, coalesce(enqueue_mail.payload, '{}'),
            internal.now() + pg_catalog.make_interval(secs => coalesce(enqueue_mail.delay_seconds, 0)))
    on conflict (kind, ref_id) do nothing
    returning 1
  )
  select exists (select 1 from queued)
$$;
