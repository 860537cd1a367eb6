/**
 * Account care over time (issue 23): a project's schedule of re-audits, its alert rules, the bell's
 * notifications and the Telegram chat a person links. Shapes and Russian wording for both sides.
 */
import * as v from 'valibot';
import { text } from './text.js';

export const monitoringMessages = {
  frequency: 'Выберите, как часто проверять: каждый день, каждую неделю или каждый месяц',
  hour: 'Час запуска — целое число от 0 до 23',
  weekday: 'День недели — число от 1 (понедельник) до 7 (воскресенье)',
  monthDay: 'День месяца — число от 1 до 28 (такой день есть в каждом месяце)',
  timeZone: 'Неизвестный часовой пояс: укажите его как в списке IANA, например Europe/Moscow',
  scheduleNotFound: 'У проекта нет расписания проверок',
  quietHour: 'Тихие часы — целые числа от 0 до 23',
  minLeak: 'Порог новой утечки — целое число рублей от 0 до 10 000 000',
  runoutDays: 'Срок для бюджета — целое число дней от 1 до 60',
  notificationNotFound: 'Уведомление не найдено',
  telegramUnavailable: 'Telegram-бот на этом сервере не настроен (TELEGRAM_BOT_TOKEN)',
  telegramLinked: 'Чат привязан: уведомления Reklama Lab будут приходить сюда.',
  telegramCodeInvalid: 'Код не подошёл или устарел. Получите новую ссылку в настройках уведомлений Reklama Lab.',
  telegramHello: 'Чтобы получать уведомления, откройте ссылку из настроек уведомлений Reklama Lab.',
} as const;

export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];
export const DEFAULT_TIME_ZONE = 'Europe/Moscow';

export const frequencyLabels: Record<ScheduleFrequency, string> = { daily: 'Каждый день', weekly: 'Каждую неделю', monthly: 'Каждый месяц' };

/**
 * Runs in a month, for the monthly cost shown before a schedule is saved: daily 30, weekly 4, monthly 1
 * (a month of 31 days may hold one more daily or weekly run).
 */
export function runsPerMonth(frequency: ScheduleFrequency): number {
  return frequency === 'daily' ? 30 : frequency === 'weekly' ? 4 : 1;
}

const int = (message: string, min: number, max: number) => v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));

export const ScheduleInputSchema = v.object({
  frequency: v.picklist(SCHEDULE_FREQUENCIES, monitoringMessages.frequency),
  hour: int(monitoringMessages.hour, 0, 23),
  weekday: v.optional(v.nullable(int(monitoringMessages.weekday, 1, 7))),
  month_day: v.optional(v.nullable(int(monitoringMessages.monthDay, 1, 28))),
  /** The project's zone (kept on the project); Europe/Moscow unless set. */
  time_zone: v.optional(v.pipe(text(monitoringMessages.timeZone), v.minLength(1, monitoringMessages.timeZone), v.maxLength(64, monitoringMessages.timeZone))),
  enabled: v.optional(v.boolean()),
});
export type ScheduleInput = v.InferOutput<typeof ScheduleInputSchema>;

export const ScheduledRunSchema = v.object({
  slot: v.string(),
  status: v.picklist(['due', 'reading', 'auditing', 'completed', 'reminded', 'skipped', 'failed']),
  note: v.nullable(v.string()),
  analysis_id: v.nullable(v.string()),
});
export type ScheduledRun = v.InferOutput<typeof ScheduledRunSchema>;

export const ScheduleStateSchema = v.object({
  schedule: v.nullable(
    v.object({
      frequency: v.picklist(SCHEDULE_FREQUENCIES),
      hour: v.number(),
      weekday: v.nullable(v.number()),
      month_day: v.nullable(v.number()),
      enabled: v.boolean(),
      next_run_at: v.nullable(v.string()),
    }),
  ),
  time_zone: v.string(),
  /** `audit`: re-read through the Direct API and audited; `reminder`: a file project, reminded to upload. */
  mode: v.picklist(['audit', 'reminder']),
  /** Tokens one scheduled audit costs now (the price of a manual audit of all campaigns); 0 for reminders. */
  price_per_run: v.number(),
  runs: v.array(ScheduledRunSchema),
});
export type ScheduleState = v.InferOutput<typeof ScheduleStateSchema>;

export const AlertRulesSchema = v.object({
  new_leak: v.boolean(),
  new_leak_min_rub: int(monitoringMessages.minLeak, 0, 10_000_000),
  rejected: v.boolean(),
  runout: v.boolean(),
  runout_days: int(monitoringMessages.runoutDays, 1, 60),
  run_failed: v.boolean(),
  email: v.boolean(),
  telegram: v.boolean(),
  quiet_from: v.nullable(int(monitoringMessages.quietHour, 0, 23)),
  quiet_to: v.nullable(int(monitoringMessages.quietHour, 0, 23)),
  /** Everything waits for the 09:00 digest, not only what happens in quiet hours. */
  digest_only: v.boolean(),
});
export type AlertRules = v.InferOutput<typeof AlertRulesSchema>;

export const NOTIFICATION_KINDS = ['new_leak', 'rejected', 'runout', 'run_failed', 'run_skipped', 'upload_reminder'] as const;

export const ServerNotificationSchema = v.object({
  id: v.string(),
  kind: v.picklist(NOTIFICATION_KINDS),
  project_id: v.string(),
  title: v.string(),
  message: v.string(),
  money_per_month: v.nullable(v.number()),
  /** A path of the PWA: the finding, the run or the project. */
  link: v.string(),
  created_at: v.string(),
  read: v.boolean(),
});
export type ServerNotification = v.InferOutput<typeof ServerNotificationSchema>;

export const NotificationListSchema = v.object({ items: v.array(ServerNotificationSchema), unread: v.number() });
export type NotificationList = v.InferOutput<typeof NotificationListSchema>;

export const TelegramStateSchema = v.object({
  available: v.boolean(),
  bot_username: v.nullable(v.string()),
  linked: v.boolean(),
  /** The bot got 403 from this chat (blocked or deleted): link again to resume. */
  blocked: v.boolean(),
});
export type TelegramState = v.InferOutput<typeof TelegramStateSchema>;

export const TelegramLinkSchema = v.object({ code: v.string(), link: v.string(), expires_at: v.string() });
