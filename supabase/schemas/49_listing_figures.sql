-- How an agent's listings do, week by week (docs/agent-area.md "Her listings"), as RESO's
-- InternetTrackingSummary counts them: page views, saves, inquiries, visit requests and alert mails
-- sent, beside the market's figure for the listing's sector. Counts only: a view or a save adds one
-- to its listing's week (internal.count_listing_event, called by the listing-events function), with
-- no cookie, address or anything else of the visitor's kept.

create table internal.listing_weeks (
  listing_id bigint not null references internal.listings (id) on delete cascade,
  -- the Monday of the week, in Ecuador
  week date not null,
  views integer not null default 0,
  saves integer not null default 0,
  primary key (listing_id, week)
);
alter table internal.listing_weeks enable row level security;
comment on table internal.listing_weeks is 'Page views and saves of each listing, by week in Ecuador: counts only (docs/agent-area.md).';

-- the Monday of the week `at` is in, in Ecuador
create or replace function internal.ecuador_week(at timestamptz)
returns date language sql immutable set search_path = '' as $$
  select pg_catalog.date_trunc('week', at at time zone 'America/Guayaquil')::date
$$;

-- One view or save of a public listing, added to its week; false for a listing that is not public.
create or replace function internal.count_listing_event(listing bigint, event text)
returns boolean language sql volatile set search_path = '' as $$
  with counted as (
    insert into internal.listing_weeks (listing_id, week, views, saves)
    select l.id, internal.ecuador_week(internal.now()), (event = 'view')::integer, (event = 'save')::integer
      from internal.listings l
     where l.id = count_listing_event.listing and l.is_public and event in ('view', 'save')
    on conflict (listing_id, week) do update
      set views = internal.listing_weeks.views + excluded.views, saves = internal.listing_weeks.saves + excluded.saves
    returning 1
  )
  select exists (select 1 from counted)
$$;

create index search_alerts_items on internal.search_alerts using gin (items jsonb_path_ops);

-- Her public listings (the newest `max_listings`; the team: `agent_id`'s), each with its last
-- `weeks` weeks: views, saves, inquiries, visit requests, alert mails sent; and the market's figure
-- for its sector (public.listing_market: the sector's median USD/m² beside the listing's).
create or replace function public.my_listing_figures(weeks integer default 8, agent_id bigint default null, max_listings integer default 50)
returns jsonb language plpgsql stable security definer set search_path = '' as $$
declare
  whose bigint := coalesce(internal.my_agent_id(), case when internal.is_team() then my_listing_figures.agent_id end);
  first_week date;
begin
  if whose is null then
    raise exception 'only an agent of ours (or the team, naming one) has listings' using errcode = '42501';
  end if;
  if weeks is null or weeks not between 1 and 26 or max_listings is null or max_listings not between 1 and 200 then
    raise exception 'weeks is 1 to 26, max_listings 1 to 200' using errcode = '22023', hint = 'range';
  end if;
  first_week := internal.ecuador_week(internal.now()) - (weeks - 1) * 7;
  return coalesce((
    select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
             'id', l.id, 'title', l.title, 'city', l.city, 'sector', l.sector, 'price', l.price, 'operation', l.operation,
             'usd_m2', case when l.operation = 'sale' and l.square_feet > 0 then pg_catalog.round(l.price / l.square_feet) end,
             'market', (select pg_catalog.to_jsonb(m) from public.listing_market(l.id) m order by m.month desc limit 1),
             'weeks', (
               select pg_catalog.jsonb_agg(pg_catalog.jsonb_build_object(
                        'week', w.week,
                        'views', coalesce(c.views, 0),
                        'saves', coalesce(c.saves, 0),
                        'inquiries', (select count(*) from public.inquiries i
                                       where i.listing_id = l.id and not i.spam and internal.ecuador_week(i.received_at) = w.week
                                         and not exists (select 1 from internal.visit_requests v where v.inquiry_id = i.id)),
                        'visit_requests', (select count(*) from internal.visit_requests v where v.listing_id = l.id and internal.ecuador_week(v.created_at) = w.week),
                        'alert_mails', (select count(*) from internal.search_alerts a join internal.mail_outbox o on o.kind = 'alert' and o.ref_id = a.id::text and o.status = 'sent'
                                         where a.items @> pg_catalog.jsonb_build_array(pg_catalog.jsonb_build_object('id', l.id)) and internal.ecuador_week(o.sent_at) = w.week))
                      order by w.week)
                 from (select (first_week + d * 7) as week from pg_catalog.generate_series(0, weeks - 1) d) w
                 left join internal.listing_weeks c on c.listing_id = l.id and c.week = w.week))
           order by l.listed_at desc nulls last, l.id desc)
      from (select * from internal.listings x where x.agent_id = whose and x.is_public order by x.listed_at desc nulls last, x.id desc limit max_listings) l), '[]');
end
$$;
comment on function public.my_listing_figures is 'A signed-in agent''s listings, week by week: views, saves, inquiries, visit requests, alert mails (docs/agent-area.md).';
