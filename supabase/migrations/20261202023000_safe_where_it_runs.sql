-- Safe where it really runs (issue 58; docs/decisions.md #24): mail to one mailbox is counted
-- however its address is written; an alert's new listings are those that appeared here, whatever
-- date a feed gives as their market date.

-- The mailbox an e-mail address reaches, to count mails to one person however the address is
-- written (docs/decisions.md #24): lower case, without a "+tag" after the local part
-- (ana+x@example.org and Ana@Example.org are one mailbox). Never stored: counted by.
create or replace function internal.mailbox(email text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select pg_catalog.regexp_replace(pg_catalog.lower(pg_catalog.btrim(email)), '\+[^@]*@', '@')
$$;

-- a seller's requests by the mailbox they ask for (the mails to one person a day are capped:
-- core/functions/inquiry/handler.ts)
create index inquiries_seller_mailbox on public.inquiries (internal.mailbox(email), received_at desc) where seller is not null;

-- when a listing appeared here: inserted active, or made active again (never from a feed, whose
-- OnMarketDate is listed_at). The rows already here appeared when they came on the market (not
-- when this ran, which would make every one of them new to every alert), set without the
-- triggers, which would count it as a change of each listing
alter table internal.listings add column appeared_at timestamptz;
alter table internal.listings disable trigger user;
update internal.listings set appeared_at = listed_at;
alter table internal.listings enable trigger user;
alter table internal.listings alter column appeared_at set default internal.now(), alter column appeared_at set not null;
comment on column internal.listings.listed_at is 'When the listing came on the market: the feed''s date, else when it was inserted active or made active again.';
comment on column internal.listings.appeared_at is 'When it appeared here (inserted, or made active again): new for the alerts, whatever date its feed gives.';

create or replace function internal.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- a new row was last changed when it was created (unless it says otherwise); a changed one now
  if tg_op = 'INSERT' then
    new.updated_at := coalesce(new.updated_at, new.created_at, internal.now());
    new.listed_at := coalesce(new.listed_at, internal.now());
    new.appeared_at := coalesce(new.appeared_at, internal.now());
  else
    new.updated_at := internal.now();
    -- back on the market: new again for the alerts
    if new.status = '1' and old.status is distinct from '1' then
      new.listed_at := internal.now();
      new.appeared_at := internal.now();
    end if;
  end if;
  return new;
end
$$;

-- the alerts' new listings: those that appeared here since a search's mark
create index listings_appeared on internal.listings (appeared_at) where country_code = 'EC' and status = '1';
