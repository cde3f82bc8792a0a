-- Every copy made from the listings, in one place: the words' copy (22_listing_words.sql), the
-- places' counts (31_places.sql) and the map's cells (32_map.sql). Kept by one statement trigger
-- for each kind of change, and made again, all three, at the end of a bulk load that deferred them.

-- A listing that becomes public (or changes its words) is written into the words' copy, one that
-- stops being public (withdrawn, deleted) is taken out; the cells and the places it was in, or is
-- in now, are counted again. Each statement names only the transition tables its event has.
create or replace function internal.listing_copies_changed()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  -- the map cells to count again (listings for sale, public, before or after)
  xs double precision[];
  ys double precision[];
  -- the places to count again
  provinces text[];
  cities text[];
begin
  -- a bulk load (the seed, a large import) makes every copy once at its end (listings_derived_rebuild)
  if current_setting('exp.listing_cells', true) = 'deferred' then return null; end if;
  if tg_op = 'INSERT' then
    insert into internal.listing_words (id, words, operation)
    select n.id, n.words, n.operation from new_rows n where n.is_public and n.words is not null
    on conflict (id) do update set words = excluded.words, operation = excluded.operation;
    select array_agg(map_x) filter (where is_public and operation = 'sale'),
           array_agg(map_y) filter (where is_public and operation = 'sale'),
           array_agg(distinct state_slug), array_agg(distinct city_slug)
      into xs, ys, provinces, cities
      from new_rows;
  elsif tg_op = 'DELETE' then
    delete from internal.listing_words w using old_rows o where w.id = o.id;
    select array_agg(map_x) filter (where is_public and operation = 'sale'),
           array_agg(map_y) filter (where is_public and operation = 'sale'),
           array_agg(distinct state_slug), array_agg(distinct city_slug)
      into xs, ys, provinces, cities
      from old_rows;
  else
    delete from internal.listing_words w
     using old_rows o
     where w.id = o.id
       and not exists (select 1 from new_rows n where n.id = o.id and n.is_public and n.words is not null);
    insert into internal.listing_words (id, words, operation)
    select n.id, n.words, n.operation
      from new_rows n
     where n.is_public and n.words is not null
       and not exists (select 1 from old_rows o where o.id = n.id and o.words = n.words and o.operation = n.operation and o.is_public)
    on conflict (id) do update set words = excluded.words, operation = excluded.operation;
    -- a listing that moved, changed price or became (in)active: its old cell and its new one, each if public
    select array_agg(c.x), array_agg(c.y) into xs, ys
    from old_rows o
    join new_rows n using (id)
    cross join lateral (values (o.map_x, o.map_y, o.is_public, o.operation), (n.map_x, n.map_y, n.is_public, n.operation)) c(x, y, is_public, operation)
    where (o.map_x, o.map_y, o.price, o.status, o.country_code, o.map_approximate, o.operation)
          is distinct from (n.map_x, n.map_y, n.price, n.status, n.country_code, n.map_approximate, n.operation)
      and c.is_public and c.operation = 'sale';
    -- a listing that moved or changed what a place counts: the places it was in and is in
    select array_agg(distinct c.state_slug), array_agg(distinct c.city_slug) into provinces, cities
    from old_rows o
    join new_rows n using (id)
    cross join lateral (values (o.state_slug, o.city_slug), (n.state_slug, n.city_slug)) c(state_slug, city_slug)
    where (o.state, o.city, o.sector, o.status, o.country_code, o.map_lat, o.map_lng, o.operation)
          is distinct from (n.state, n.city, n.sector, n.status, n.country_code, n.map_lat, n.map_lng, n.operation);
  end if;
  if xs is not null then perform internal.listing_cells_recount(internal.listing_cell_index(xs), internal.listing_cell_index(ys)); end if;
  if provinces is not null then perform internal.places_recount(provinces, cities); end if;
  return null;
end
$$;

create trigger listing_copies_insert after insert on internal.listings referencing new table as new_rows for each statement execute function internal.listing_copies_changed();

create trigger listing_copies_update after update on internal.listings referencing old table as old_rows new table as new_rows for each statement execute function internal.listing_copies_changed();

create trigger listing_copies_delete after delete on internal.listings referencing old table as old_rows for each statement execute function internal.listing_copies_changed();

-- every copy of what the listings say, made again from them: the map's cells and the places'
-- counts (listing_cells_rebuild) and the words' copy, after a bulk load that deferred them
create or replace function internal.listings_derived_rebuild()
returns void language plpgsql security definer set search_path = '' as $$
begin
  perform internal.listing_cells_rebuild();
  delete from internal.listing_words;
  insert into internal.listing_words (id, words, operation)
  select l.id, l.words, l.operation from internal.listings l where l.is_public and l.words is not null;
end
$$;
