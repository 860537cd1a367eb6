import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type ScheduleFrequency = 'daily' | 'weekly' | 'monthly';
export type ScheduledRunStatus = 'due' | 'reading' | 'auditing' | 'completed' | 'reminded' | 'skipped' | 'failed';
export type MonitoringEventKind = 'new_leak' | 'rejected' | 'runout' | 'run_failed' | 'run_skipped' | 'upload_reminder';

/** A project's schedule of re-audits (migration 0130); `next_run_at` is the next slot as a UTC instant. */
export interface ProjectSchedulesTable {
  project_id: string;
  organization_id: string;
  /** Who set the schedule: each run is started and paid as this person. */
  owner_id: string | null;
  frequency: ScheduleFrequency;
  hour: number;
  /** 1 = Monday … 7 = Sunday (weekly). */
  weekday: number | null;
  /** 1…28 (monthly: every month has it). */
  month_day: number | null;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  next_run_at: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One slot of a schedule, as it went. */
export interface ScheduledRunsTable {
  id: Generated<string>;
  project_id: string;
  organization_id: string;
  owner_id: string | null;
  slot: Timestamp;
  status: ColumnType<ScheduledRunStatus, ScheduledRunStatus | undefined, ScheduledRunStatus>;
  import_job_id: string | null;
  analysis_id: string | null;
  note: string | null;
  lease_until: NullableTimestamp;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface AlertRulesTable {
  project_id: string;
  new_leak: boolean;
  new_leak_min_rub: number;
  rejected: boolean;
  runout: boolean;
  runout_days: number;
  run_failed: boolean;
  email: boolean;
  telegram: boolean;
  quiet_from: number | null;
  quiet_to: number | null;
  digest_only: boolean;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface MonitoringEventsTable {
  id: Generated<string>;
  organization_id: string;
  project_id: string;
  kind: MonitoringEventKind;
  dedupe_key: string;
  title: string;
  cause: string;
  money_per_month: number | null;
  /** A path of the PWA (`/projects/…`), made absolute with PUBLIC_URL in e-mail and Telegram. */
  link: string;
  created_at: CreatedAt;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  organization_id: string;
  event_id: string;
  created_at: CreatedAt;
  read_at: NullableTimestamp;
}

export interface AlertDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  user_id: string;
  channel: 'email' | 'telegram';
  status: ColumnType<'pending' | 'sent' | 'dropped' | 'failed', 'pending' | undefined, 'pending' | 'sent' | 'dropped' | 'failed'>;
  due_at: Timestamp;
  attempts: ColumnType<number, number | undefined, number>;
  error: string | null;
  sent_at: NullableTimestamp;
}

export interface TelegramChatsTable {
  user_id: string;
  chat_id: string;
  linked_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** The bot got 403 (the person blocked it): nothing is sent until the chat is linked again. */
  blocked_at: NullableTimestamp;
}

export interface TelegramLinkCodesTable {
  code_hash: string;
  user_id: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface TelegramPollStateTable {
  id: boolean;
  next_update_id: ColumnType<string, string | number, string | number>;
  lease_until: NullableTimestamp;
}

export interface MonitoringTables {
  project_schedules: ProjectSchedulesTable;
  scheduled_runs: ScheduledRunsTable;
  alert_rules: AlertRulesTable;
  monitoring_events: MonitoringEventsTable;
  notifications: NotificationsTable;
  alert_deliveries: AlertDeliveriesTable;
  telegram_chats: TelegramChatsTable;
  telegram_link_codes: TelegramLinkCodesTable;
  telegram_poll_state: TelegramPollStateTable;
}
