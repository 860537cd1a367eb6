import type { FastifyPluginAsync } from 'fastify';
import { monitoringMessages as m } from '../../contract/monitoring.js';
import { monitoringRoutes as routes } from '../../contract/routes/monitoring.js';
import { callerOf } from '../auth/authenticate.js';
import { HttpError } from '../lib/errors.js';
import { addRoute } from '../lib/routes.js';
import { readAlertRules, saveAlertRules } from './alert-rules.js';
import { listNotifications, markAllNotificationsRead, markNotificationRead } from './notifications.js';
import { deleteSchedule, readSchedule, saveSchedule } from './schedules.js';
import { createLinkCode, createTelegramBot } from './telegram.js';

/** Schedules and alert rules of a project, the bell, and linking a Telegram chat (registered without a prefix). */
export const monitoringRoutes: FastifyPluginAsync = async (app) => {
  const bot = app.config.telegram ? createTelegramBot(app.config.telegram) : null;

  addRoute(app, routes.schedule, async (request) => readSchedule(app.db, callerOf(request).organizationId, request.params.id));
  addRoute(app, routes.saveSchedule, async (request) => saveSchedule(app.db, callerOf(request), request.params.id, request.body, new Date()));
  addRoute(app, routes.deleteSchedule, async (request, reply) => {
    await deleteSchedule(app.db, callerOf(request).organizationId, request.params.id);
    reply.status(204);
    return null;
  });

  addRoute(app, routes.alertRules, async (request) => readAlertRules(app.db, callerOf(request).organizationId, request.params.id));
  addRoute(app, routes.saveAlertRules, async (request) => saveAlertRules(app.db, callerOf(request).organizationId, request.params.id, request.body));

  addRoute(app, routes.notifications, async (request) => listNotifications(app.db, callerOf(request)));
  addRoute(app, routes.readNotification, async (request, reply) => {
    await markNotificationRead(app.db, callerOf(request), request.params.id);
    reply.status(204);
    return null;
  });
  addRoute(app, routes.readAllNotifications, async (request, reply) => {
    await markAllNotificationsRead(app.db, callerOf(request));
    reply.status(204);
    return null;
  });

  addRoute(app, routes.telegram, async (request) => {
    const chat = await app.db.selectFrom('telegram_chats').select('blocked_at').where('user_id', '=', callerOf(request).userId).executeTakeFirst();
    return { available: bot !== null, bot_username: bot?.username ?? null, linked: Boolean(chat && !chat.blocked_at), blocked: Boolean(chat?.blocked_at) };
  });
  addRoute(app, routes.linkTelegram, async (request) => {
    if (!bot) throw new HttpError(503, 'TELEGRAM_UNAVAILABLE', m.telegramUnavailable);
    return createLinkCode(app.db, bot, callerOf(request).userId, new Date());
  });
  addRoute(app, routes.unlinkTelegram, async (request, reply) => {
    await app.db.deleteFrom('telegram_chats').where('user_id', '=', callerOf(request).userId).execute();
    reply.status(204);
    return null;
  });
};
