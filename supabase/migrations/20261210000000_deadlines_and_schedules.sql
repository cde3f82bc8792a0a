-- A time limit on every statement of the public key, as a hosted project sets it (Supabase: anon
-- 3 s, authenticated 8 s). Our server applies the anon role's settings to its public sessions, as
-- PostgREST does for the role it impersonates (server/db/postgres.ts), so this is their one home.
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';

-- The scheduled jobs every server on this database shares (an import source each): when each is
-- next due and when it last ran fully. A server runs a job only while it holds the job's advisory
-- lock (server/import/service.ts), so a job runs once per schedule across servers, never twice at
-- once; a server that dies mid-run lets go of the lock with its connection and leaves `due_at`
-- where it was, so the next server to look runs it again.
create table if not exists internal.job_schedule (
  job text primary key,
  due_at timestamptz not null default now(),
  last_full_at timestamptz,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_runner text
);
revoke all on internal.job_schedule from public, anon, authenticated;
grant all on internal.job_schedule to service_role;
