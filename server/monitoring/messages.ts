/** The words of an alert: the bell's line, the e-mail and the Telegram message (single or a digest). */
import { formatCountOf, formatRub } from '../../contract/format.js';
import type { OutgoingMail } from '../email/mailer.js';

export interface EventText {
  title: string;
  cause: string;
  money_per_month: number | null;
  link: string;
}

/** The cause, then the money: «… Это ≈ 4 500 ₽ в месяц.» */
export function formatEventMessage(event: Pick<EventText, 'cause' | 'money_per_month'>): string {
  return event.money_per_month === null ? event.cause : `${event.cause} Это ≈ ${formatRub(event.money_per_month)} в месяц.`;
}

const absolute = (publicUrl: string, link: string) => `${publicUrl.replace(/\/+$/, '')}${link}`;

function eventBlock(event: EventText, publicUrl: string): string {
  return `${event.title}\n${formatEventMessage(event)}\n${absolute(publicUrl, event.link)}`;
}

/** One event alone, or a digest of several in one message (quiet hours, the morning digest). */
export function alertText(events: EventText[], publicUrl: string): { subject: string; text: string } {
  if (events.length === 1) return { subject: `Reklama Lab: ${events[0]!.title}`, text: eventBlock(events[0]!, publicUrl) };
  const total = events.reduce((sum, event) => sum + (event.money_per_month ?? 0), 0);
  const head = `Reklama Lab: ${formatCountOf(events.length, ['событие', 'события', 'событий'])} по вашим проектам`;
  const money = total > 0 ? `\nВсего под угрозой ≈ ${formatRub(total)} в месяц.` : '';
  return { subject: head, text: `${head}${money}\n\n${events.map((event) => eventBlock(event, publicUrl)).join('\n\n')}` };
}

export function alertMail(to: string, events: EventText[], publicUrl: string): OutgoingMail {
  const { subject, text } = alertText(events, publicUrl);
  return { to, subject, text: `${text}\n\nНастроить уведомления можно на странице проекта.` };
}
