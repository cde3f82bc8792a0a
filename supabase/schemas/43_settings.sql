-- Closed to abuse (docs/decisions.md #24).
--
-- Private settings of the deployment that the database keeps for every process that serves it
-- (our server, the deployed functions): the salt of the client hashes is made at random the first
-- time it is needed (core/functions/function-http.ts clientSalt), so it is in no code
-- and no two deployments share one. Closed to the public key.
create table internal.settings (
  name text primary key,
  value text not null,
  created_at timestamptz not null default internal.now()
);

alter table internal.settings enable row level security;

comment on table internal.settings is 'Private settings every server process reads alike (the salt of the client hashes). Never readable with the public key.';
