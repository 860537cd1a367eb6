/**
 * Account care (issue 23): a project's schedule of re-audits and alert rules, the bell's server
 * notifications, and the Telegram chat of the person.
 */
import { queryOptions } from '@tanstack/react-query';
import type { AlertRules, ScheduleInput } from '@contract/monitoring.js';
import { monitoringRoutes as routes } from '@contract/routes/monitoring.js';
import { callApi } from './call-api';

export const monitoringKeys = {
  schedule: (projectId: string) => ['projects', 'detail', projectId, 'schedule'] as const,
  alertRules: (projectId: string) => ['projects', 'detail', projectId, 'alert-rules'] as const,
  notifications: ['notifications'] as const,
  telegram: ['monitoring', 'telegram'] as const,
};

/** New alerts reach the bell within a minute while the app is open. */
const NOTIFICATIONS_POLL_MS = 60_000;

export const scheduleQueryOptions = (projectId: string) =>
  queryOptions({ queryKey: monitoringKeys.schedule(projectId), queryFn: ({ signal }) => callApi(routes.schedule, { params: { id: projectId }, signal }) });

export const alertRulesQueryOptions = (projectId: string) =>
  queryOptions({ queryKey: monitoringKeys.alertRules(projectId), queryFn: ({ signal }) => callApi(routes.alertRules, { params: { id: projectId }, signal }) });

export const notificationsQueryOptions = () =>
  queryOptions({ queryKey: monitoringKeys.notifications, queryFn: ({ signal }) => callApi(routes.notifications, { signal }), refetchInterval: NOTIFICATIONS_POLL_MS });

export const telegramQueryOptions = () => queryOptions({ queryKey: monitoringKeys.telegram, queryFn: ({ signal }) => callApi(routes.telegram, { signal }) });

export const saveSchedule = (projectId: string, body: ScheduleInput) => callApi(routes.saveSchedule, { params: { id: projectId }, body });
export const deleteSchedule = (projectId: string) => callApi(routes.deleteSchedule, { params: { id: projectId } });
export const saveAlertRules = (projectId: string, body: AlertRules) => callApi(routes.saveAlertRules, { params: { id: projectId }, body });
export const markServerNotificationRead = (id: string) => callApi(routes.readNotification, { params: { id } });
export const markAllServerNotificationsRead = () => callApi(routes.readAllNotifications);
export const linkTelegram = () => callApi(routes.linkTelegram);
export const unlinkTelegram = () => callApi(routes.unlinkTelegram);
