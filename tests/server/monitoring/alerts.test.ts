import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../../server/email/mailer.js';
import { deliverDueAlerts, type DeliveryDeps } from '../../../server/monitoring/delivery.js';
import { raiseEvent, type NewEvent } from '../../../server/monitoring/events.js';
import { createTelegramBot, pollTelegramOnce, type TelegramBot } from '../../../server/monitoring/telegram.js';
import { startMailbox } from '../../e2e/helpers/mailbox.js';
import { startFakeTelegram, type FakeTelegram } from '../../fakes/telegram-fake.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createProjectRow, createUser, type FixtureUser } from '../helpers/fixtures.js';

/**
 * Alerts through a fake Telegram Bot API on 127.0.0.1 and a real SMTP server: linking a chat with a one-time
 * `/start <code>`, the bell at once, quiet hours gathering events into one 09:00 message, a chat that blocked
 * the bot (403) or is gone dropped without retries, and a 429 waited out exactly. The clock is passed in.
 */

let telegram: FakeTelegram;
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
let t: TestApp;
let bot: TelegramBot;
let deps: DeliveryDeps;
let owner: FixtureUser;
let projectId: string;
const CHAT = 4242;

/** 23:00 in Moscow (UTC+3) on 10 March 2026, and the times after it. */
const lateEvening = new Date('2026-03-10T20:00:00Z');
const nineNextMorning = new Date('2026-03-11T06:00:00Z');
const noon = new Date('2026-03-11T09:00:00Z');

let sequence = 0;
function leak(money: number, title = 'Фразы без конверсий'): NewEvent {
  sequence += 1;
  return {
    projectId,
    kind: 'new_leak',
    dedupeKey: `test:${sequence}`,
    title: `Новая утечка в «Окна»: ${title}`,
    cause: `Окна › Пластиковые окна: в прошлом аудите этого не было (${sequence}).`,
    moneyPerMonth: money,
    link: `/projects/${projectId}/analysis/a-${sequence}/results?check=keyword_waste`,
  };
}

/** Russian number formatting groups digits with a no-break space: plain spaces are easier to read in the assertions. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
const raise = (event: NewEvent, now: Date) => raiseEvent(t.app.db, event, now, { telegram: true });
const mailsTo = (email: string) => mailbox.mails.filter((mail) => mail.to.includes(email.toLowerCase()));
const decoded = (raw: string) => Buffer.from(raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, '%$1'), 'latin1').toString().replace(/%([0-9A-F]{2})/g, '%$1');
const mailText = (raw: string) => decodeURIComponent(decoded(raw).replace(/%(?![0-9A-F]{2})/g, '%25'));

async function link(token: string, chatId: number, now: Date) {
  const answer = await call(t.app, 'POST', '/api/v1/monitoring/telegram/link', { token });
  expect(answer.status).toBe(200);
  telegram.userSends(chatId, `/start ${answer.body.code}`);
  expect(await pollTelegramOnce(t.app.db, bot, { timeoutSeconds: 0, now: () => now })).toBe(true);
  return answer.body as { code: string; link: string };
}

beforeAll(async () => {
  telegram = await startFakeTelegram();
  mailbox = await startMailbox();
  const telegramConfig = { token: telegram.token, username: 'reklama_lab_bot', apiUrl: telegram.url };
  t = await createTestApp({ config: { telegram: telegramConfig } });
  bot = createTelegramBot(telegramConfig);
  deps = { db: t.app.db, mailer: createMailer({ smtpUrl: mailbox.url, from: 'Reklama Lab <no-reply@reklama-lab.local>', log: pino({ level: 'silent' }) }), telegram: bot, publicUrl: t.config.publicUrl };
  owner = await createUser(t.app);
  projectId = await createProjectRow(t.app, owner, { name: 'Окна' });
});

afterAll(async () => {
  await t?.close();
  await telegram?.close();
  await mailbox?.close();
});

describe('linking a Telegram chat', () => {
  it('links the chat that sends /start with the one-time code, once', async () => {
    const before = await call(t.app, 'GET', '/api/v1/monitoring/telegram', { token: owner.token });
    expect(before.body).toEqual({ available: true, bot_username: 'reklama_lab_bot', linked: false, blocked: false });

    const { code, link: url } = await link(owner.token, CHAT, lateEvening);
    expect(url).toBe(`https://t.me/reklama_lab_bot?start=${code}`);
    expect(telegram.sent.at(-1)).toEqual({ chat_id: String(CHAT), text: 'Чат привязан: уведомления Reklama Lab будут приходить сюда.' });
    expect((await call(t.app, 'GET', '/api/v1/monitoring/telegram', { token: owner.token })).body).toMatchObject({ linked: true, blocked: false });

    // The same code from another chat is refused, and the first chat stays linked.
    telegram.userSends(777, `/start ${code}`);
    await pollTelegramOnce(t.app.db, bot, { timeoutSeconds: 0, now: () => lateEvening });
    expect(telegram.sent.at(-1)!.text).toContain('Код не подошёл или устарел');
    const chat = await t.app.db.selectFrom('telegram_chats').select('chat_id').where('user_id', '=', owner.id).executeTakeFirstOrThrow();
    expect(chat.chat_id).toBe(String(CHAT));
    // The offset moved past what was read: a new poll answers nothing twice.
    const sentBefore = telegram.sent.length;
    await pollTelegramOnce(t.app.db, bot, { timeoutSeconds: 0, now: () => lateEvening });
    expect(telegram.sent.length).toBe(sentBefore);
  });

  it('refuses an expired code', async () => {
    const other = await createUser(t.app, { organizationId: owner.organizationId });
    const answer = await call(t.app, 'POST', '/api/v1/monitoring/telegram/link', { token: other.token });
    telegram.userSends(9001, `/start ${answer.body.code}`);
    await pollTelegramOnce(t.app.db, bot, { timeoutSeconds: 0, now: () => new Date(Date.now() + 31 * 60_000) });
    expect(telegram.sent.at(-1)).toMatchObject({ chat_id: '9001', text: expect.stringContaining('Код не подошёл') });
    expect(await t.app.db.selectFrom('telegram_chats').select('user_id').where('user_id', '=', other.id).executeTakeFirst()).toBeUndefined();
  });
});

describe('quiet hours and the morning digest', () => {
  it('shows events in the bell at once and sends them as one message at 09:00 in the project zone', async () => {
    const sentBefore = telegram.sent.length;
    await raise(leak(4_500), lateEvening);
    await raise(leak(12_000, 'Площадки без конверсий в сетях'), new Date(lateEvening.getTime() + 3_600_000));
    await raise({ ...leak(0), kind: 'rejected', title: 'Объявление отклонено модерацией в «Окна»', moneyPerMonth: null }, new Date(lateEvening.getTime() + 7_200_000));

    const bell = await call(t.app, 'GET', '/api/v1/notifications', { token: owner.token });
    expect(bell.body.unread).toBe(3);
    expect(bell.body.items[2]).toMatchObject({ kind: 'new_leak', money_per_month: 4500, read: false });
    expect(plain(bell.body.items[2].message)).toMatch(/в прошлом аудите этого не было \(\d+\)\. Это ≈ 4 500 ₽ в месяц\./);

    // Quiet until 09:00 Moscow: nothing leaves at night.
    await deliverDueAlerts(deps, new Date(nineNextMorning.getTime() - 60_000));
    expect(telegram.sent.length).toBe(sentBefore);
    expect(mailsTo(owner.email)).toHaveLength(0);

    await deliverDueAlerts(deps, nineNextMorning);
    await deliverDueAlerts(deps, new Date(nineNextMorning.getTime() + 60_000));
    const digests = telegram.sent.slice(sentBefore);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.chat_id).toBe(String(CHAT));
    expect(plain(digests[0]!.text)).toMatch(/^Reklama Lab: 3 события по вашим проектам\nВсего под угрозой ≈ 16 500 ₽ в месяц\./);
    expect(digests[0]!.text).toContain('Новая утечка в «Окна»: Площадки без конверсий в сетях');
    expect(digests[0]!.text).toContain(`http://localhost:5173/projects/${projectId}/analysis/`);
    const mails = mailsTo(owner.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toMatch(/^Subject: /m);
    expect(plain(mailText(mails[0]!.raw))).toContain('Всего под угрозой ≈ 16 500 ₽ в месяц');
  });

  it('sends an event outside quiet hours at once, alone', async () => {
    const sentBefore = telegram.sent.length;
    const event = leak(2_000);
    await raise(event, noon);
    await deliverDueAlerts(deps, noon);
    const sent = telegram.sent.slice(sentBefore);
    expect(sent).toHaveLength(1);
    expect(plain(sent[0]!.text)).toMatch(/^Новая утечка в «Окна»: Фразы без конверсий\n.*Это ≈ 2 000 ₽ в месяц\.\nhttp:\/\/localhost:5173\/projects\//);
    // The same event raised again (the next daily audit sees the same leak) is not told twice.
    expect(await raise(event, new Date(noon.getTime() + 86_400_000))).toBeNull();
  });
});

describe('a chat that cannot be reached', () => {
  it('answers 429: waits exactly retry_after, counts no failed attempt, then sends', async () => {
    const attemptsBefore = telegram.sendAttempts.get(String(CHAT)) ?? 0;
    const sentBefore = telegram.sent.length;
    const at = new Date(noon.getTime() + 3_600_000);
    telegram.rateLimitNext(30);
    await raise(leak(3_000), at);
    await deliverDueAlerts(deps, at);
    await deliverDueAlerts(deps, new Date(at.getTime() + 29_000));
    expect(telegram.sendAttempts.get(String(CHAT))).toBe(attemptsBefore + 1);
    await deliverDueAlerts(deps, new Date(at.getTime() + 30_000));
    expect(telegram.sendAttempts.get(String(CHAT))).toBe(attemptsBefore + 2);
    expect(telegram.sent.length).toBe(sentBefore + 1);
  });

  it('blocked the bot (403): marked blocked at the first refusal, the rest dropped, no retries', async () => {
    telegram.block(CHAT);
    const at = new Date(noon.getTime() + 2 * 3_600_000);
    const attemptsBefore = telegram.sendAttempts.get(String(CHAT)) ?? 0;
    await raise(leak(1_500), at);
    await raise(leak(1_600), at);
    for (let minute = 0; minute < 10; minute += 1) await deliverDueAlerts(deps, new Date(at.getTime() + minute * 60_000));
    expect(telegram.sendAttempts.get(String(CHAT))).toBe(attemptsBefore + 1);
    expect((await call(t.app, 'GET', '/api/v1/monitoring/telegram', { token: owner.token })).body).toMatchObject({ linked: false, blocked: true });
    const deliveries = await t.app.db.selectFrom('alert_deliveries').select(['status']).where('user_id', '=', owner.id).where('channel', '=', 'telegram').where('status', '=', 'pending').execute();
    expect(deliveries).toHaveLength(0);
    // New events are not even queued for the blocked chat; e-mail goes on.
    const mailsBefore = mailsTo(owner.email).length;
    await raise(leak(1_700), at);
    await deliverDueAlerts(deps, at);
    expect(telegram.sendAttempts.get(String(CHAT))).toBe(attemptsBefore + 1);
    expect(mailsTo(owner.email).length).toBe(mailsBefore + 1);
  });

  it('a chat that is gone (400 chat not found) is handled the same way, and linking again resumes', async () => {
    const at = new Date(noon.getTime() + 3 * 3_600_000);
    await link(owner.token, 5151, at);
    await t.app.db.updateTable('telegram_chats').set({ chat_id: '999999' }).where('user_id', '=', owner.id).execute();
    await raise(leak(1_800), at);
    await deliverDueAlerts(deps, at);
    await deliverDueAlerts(deps, new Date(at.getTime() + 60_000));
    expect(telegram.sendAttempts.get('999999')).toBe(1);
    expect((await call(t.app, 'GET', '/api/v1/monitoring/telegram', { token: owner.token })).body.blocked).toBe(true);

    await link(owner.token, 5151, at);
    const sentBefore = telegram.sent.length;
    await raise(leak(1_900), at);
    await deliverDueAlerts(deps, at);
    expect(telegram.sent.slice(sentBefore)).toEqual([expect.objectContaining({ chat_id: '5151' })]);
  });
});
