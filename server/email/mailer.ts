import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}

/**
 * SMTP when `SMTP_URL` is set. Otherwise mails go to the server log, so a local user can still follow
 * the verification and reset links printed there.
 */
export function createMailer(options: { smtpUrl?: string; from: string; log: FastifyBaseLogger }): Mailer {
  if (!options.smtpUrl) {
    return {
      async send(mail) {
        options.log.info({ to: mail.to, subject: mail.subject }, `Письмо (SMTP не настроен):\n${mail.text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      // Quoted-printable rather than base64 for the Russian text: links stay readable in the raw mail.
      await transport.sendMail({ from: options.from, textEncoding: 'quoted-printable', ...mail });
    },
  };
}
