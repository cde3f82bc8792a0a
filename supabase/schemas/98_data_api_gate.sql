-- Each client's share of a hosted project's data API (docs/deployment.md "What the public key may
-- ask"): PostgREST's pre-request hook, which it calls in every request's transaction before the
-- request's own statement, as the role of the request, with the request's headers and path set.
--
-- Our server shares its own pool among clients (server/http/client-shares.ts); on a hosted project
-- PostgREST's pool of connections is shared by whoever asks. A GET runs in a read-only transaction,
-- so the hook cannot count in a table: it holds advisory locks, which end with the transaction.
-- - A client (the address the platform's proxy sets: Cloudflare's CF-Connecting-IP, else the last
--   X-Forwarded-For hop) runs at most 4 requests at once; a fifth is refused at once.
-- - Reads whose size the client chooses (the rows of a table or a view, filtered as it likes, or
--   more than 48 of the search's rows, which it may filter too) take one of two turns across all
--   clients, and a table's read ends at 250 ms: so they never hold more than two of the pool's
--   connections, and the rest is free for the calls the site makes (a page of the search, the
--   count, the clusters, a listing's page); a third is refused at once.
-- Refused means 429 with Retry-After: 1, through PostgREST's own error for a hook (SQLSTATE PGRST,
-- its status and headers in the detail), which postgrest-js and our elements read as a busy API.
-- Only the public key is held; a signed-in agent and the service are not.

-- One of the two turns for a read whose size the client chooses (a table's or a view's rows, or a
-- thousand of the search's), across all clients; refused at once when both are taken.
create or replace function internal.take_bulk_turn()
returns void language plpgsql volatile set search_path = '' as $$
begin
  for slot in 0..1 loop
    if pg_catalog.pg_try_advisory_xact_lock(1197568870, slot) then
      return;
    end if;
  end loop;
  perform internal.too_many_at_once();
end
$$;

-- PostgREST's answer to a request past its share: 429, Retry-After: 1 (its error for SQLSTATE PGRST)
create or replace function internal.too_many_at_once()
returns void language plpgsql volatile set search_path = '' as $$
begin
  raise sqlstate 'PGRST' using
    message = pg_catalog.json_build_object('code', 'EXP429', 'message', 'Too many requests at once: try again in a second',
                                           'details', null, 'hint', 'docs/data-api.md')::text,
    detail = pg_catalog.json_build_object('status', 429, 'headers', pg_catalog.json_build_object('Retry-After', '1'))::text;
end
$$;

create or replace function internal.data_api_gate()
returns void language plpgsql volatile set search_path = '' as $$
declare
  headers jsonb := coalesce(nullif(pg_catalog.current_setting('request.headers', true), '')::jsonb, '{}');
  path text := coalesce(pg_catalog.current_setting('request.path', true), '');
  client text;
begin
  if current_user <> 'anon' then
    return;
  end if;
  client := coalesce(nullif(pg_catalog.btrim(headers->>'cf-connecting-ip'), ''),
                     nullif(pg_catalog.btrim(pg_catalog.split_part(headers->>'x-forwarded-for', ',', -1)), ''),
                     'unknown');
  for slot in 0..3 loop
    if pg_catalog.pg_try_advisory_xact_lock(1197568869, pg_catalog.hashtext(client || '/' || slot)) then
      if path !~ '^/rpc/' then
        perform internal.take_bulk_turn();
        -- and ends at 250 ms: what our pages read so takes 1 to 5 ms, a spec-shaped search over
        -- every listing under 100 (docs/data-api.md)
        perform pg_catalog.set_config('statement_timeout', '250ms', true);
      else
        -- the request's statement ends at 350 ms, so that the request, its other statements with
        -- it, holds its connection at most the public key's 500 ms (00_setup.sql)
        perform pg_catalog.set_config('statement_timeout', '350ms', true);
      end if;
      return;
    end if;
  end loop;
  perform internal.too_many_at_once();
end
$$;

comment on function internal.data_api_gate is 'PostgREST''s pre-request hook: each client at most 4 requests at once, reads of tables and views two at a time (docs/deployment.md).';

-- PostgREST reads its hook from the settings of the role it logs in as (in-database configuration)
alter role authenticator set pgrst.db_pre_request = 'internal.data_api_gate';
