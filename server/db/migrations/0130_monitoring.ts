import { sql, type Kysely } from 'kysely';

/**
 * Account care over time (issue 23, items 1 and 3): schedules of re-audits, the runs they make, alert rules,
 * the events they raise and where each event goes (the bell, e-mail, Telegram).
 *
 * - `projects.time_zone`: the zone a schedule's hour, the quiet hours and the 09:00 digest are read in.
 * - `project_schedules`: one per project; `next_run_at` is the next slot (UTC instant of the local hour).
 *   The sweep claims a due row with `FOR UPDATE SKIP LOCKED`, writes the slot into `scheduled_runs`
 *   (unique per project and slot) and moves `next_run_at` on, in one transaction: each slot happens once
 *   however many processes sweep.
 * - `scheduled_runs`: one slot's run, a small state machine (due → reading → auditing → completed, or
 *   reminded / skipped / failed); `lease_until` keeps two processes from advancing the same run at once.
 * - `alert_rules`: per project; a project without a row uses the defaults (server/monitoring/alert-rules.ts).
 * - `monitoring_events`: what happened, once (`dedupe_key`); `notifications`: the bell, per user, unread
 *   until read; `alert_deliveries`: the e-mail and Telegram messages, sent when due (quiet hours and the
 *   digest move `due_at` to 09:00), with their attempts.
 * - `telegram_chats`, `telegram_link_codes`, `telegram_poll_state`: linking a chat by `/start <code>` read
 *   with getUpdates (the offset survives restarts; a lease lets one process poll at a time).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE projects ADD COLUMN time_zone text NOT NULL DEFAULT 'Europe/Moscow'`.execute(db);
  await sql`
    CREATE TABLE project_schedules (
      project_id uuid PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      owner_id uuid REFERENCES users(id) ON DELETE SET NULL,
      frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
      hour smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
      weekday smallint CHECK (weekday BETWEEN 1 AND 7),
      month_day smallint CHECK (month_day BETWEEN 1 AND 28),
      enabled boolean NOT NULL DEFAULT true,
      next_run_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX project_schedules_due ON project_schedules (next_run_at) WHERE enabled`.execute(db);
  await sql`
    CREATE TABLE scheduled_runs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      owner_id uuid REFERENCES users(id) ON DELETE SET NULL,
      slot timestamptz NOT NULL,
      status text NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'reading', 'auditing', 'completed', 'reminded', 'skipped', 'failed')),
      import_job_id uuid,
      analysis_id uuid,
      note text,
      lease_until timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (project_id, slot)
    )`.execute(db);
  await sql`CREATE INDEX scheduled_runs_open ON scheduled_runs (created_at) WHERE status IN ('due', 'reading', 'auditing')`.execute(db);
  await sql`
    CREATE TABLE alert_rules (
      project_id uuid PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      new_leak boolean NOT NULL,
      new_leak_min_rub integer NOT NULL CHECK (new_leak_min_rub >= 0),
      rejected boolean NOT NULL,
      runout boolean NOT NULL,
      runout_days smallint NOT NULL CHECK (runout_days BETWEEN 1 AND 60),
      run_failed boolean NOT NULL,
      email boolean NOT NULL,
      telegram boolean NOT NULL,
      quiet_from smallint CHECK (quiet_from BETWEEN 0 AND 23),
      quiet_to smallint CHECK (quiet_to BETWEEN 0 AND 23),
      digest_only boolean NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`
    CREATE TABLE monitoring_events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('new_leak', 'rejected', 'runout', 'run_failed', 'run_skipped', 'upload_reminder')),
      dedupe_key text NOT NULL UNIQUE,
      title text NOT NULL,
      cause text NOT NULL,
      money_per_month integer,
      link text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX monitoring_events_project ON monitoring_events (project_id, created_at DESC)`.execute(db);
  await sql`
    CREATE TABLE notifications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
      event_id uuid NOT NULL REFERENCES monitoring_events(id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      read_at timestamptz,
      UNIQUE (event_id, user_id)
    )`.execute(db);
  await sql`CREATE INDEX notifications_user ON notifications (user_id, organization_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX notifications_unread ON notifications (user_id, organization_id) WHERE read_at IS NULL`.execute(db);
  await sql`
    CREATE TABLE alert_deliveries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      event_id uuid NOT NULL REFERENCES monitoring_events(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      channel text NOT NULL CHECK (channel IN ('email', 'telegram')),
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dropped', 'failed')),
      due_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      error text,
      sent_at timestamptz,
      UNIQUE (event_id, user_id, channel)
    )`.execute(db);
  await sql`CREATE INDEX alert_deliveries_due ON alert_deliveries (due_at) WHERE status = 'pending'`.execute(db);
  await sql`
    CREATE TABLE telegram_chats (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      chat_id text NOT NULL,
      linked_at timestamptz NOT NULL DEFAULT now(),
      blocked_at timestamptz
    )`.execute(db);
  await sql`
    CREATE TABLE telegram_link_codes (
      code_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`
    CREATE TABLE telegram_poll_state (
      id boolean PRIMARY KEY DEFAULT true CHECK (id),
      next_update_id bigint NOT NULL DEFAULT 0,
      lease_until timestamptz
    )`.execute(db);
  await sql`INSERT INTO telegram_poll_state DEFAULT VALUES`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['telegram_poll_state', 'telegram_link_codes', 'telegram_chats', 'alert_deliveries', 'notifications', 'monitoring_events', 'alert_rules', 'scheduled_runs', 'project_schedules']) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
  await sql`ALTER TABLE projects DROP COLUMN IF EXISTS time_zone`.execute(db);
}
