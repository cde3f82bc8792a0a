-- The scheduled jobs every server on this database shares (an import source each): when each is
-- next due and when it last ran fully. A server runs a job only while it holds the job's advisory
-- lock (server/import/service.ts), so a job runs once per schedule across servers, never twice at
-- once; a server that dies mid-run lets go of the lock with its connection and leaves `due_at`
-- where it was, so the next server to look runs it again.
create table if not exists internal.job_schedule (
  job text primary key,
  due_at timestamptz not null default internal.now(),
  last_full_at timestamptz,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_runner text
);
