import type { OutgoingMail } from './mailer.js';

/** Links in mails lead to the PWA's routes (spec section 2), which post the token to the API. */
export function verifyEmailLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/auth/verify-email?token=${encodeURIComponent(token)}`;
}

export function resetPasswordLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/auth/reset-password/confirm?token=${encodeURIComponent(token)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function html(paragraphs: string[], link: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const href = escapeHtml(link.href);
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Reklama Lab</title></head>
<body style="font-family: Arial, sans-serif; color: #1f2937; line-height: 1.5">
${body}
<p><a href="${href}" style="display: inline-block; padding: 10px 18px; background: #2563eb; color: #ffffff; text-decoration: none; border-radius: 6px">${escapeHtml(link.label)}</a></p>
<p style="color: #6b7280; font-size: 13px">Если кнопка не работает, скопируйте ссылку в браузер:<br>${href}</p>
<p style="color: #6b7280; font-size: 13px">Reklama Lab</p>
</body></html>`;
}

const minutes = (seconds: number) => Math.max(1, Math.round(seconds / 60));

export function verificationMail(options: { to: string; firstName: string; link: string; ttlSeconds: number }): OutgoingMail {
  const lines = [
    `Здравствуйте, ${options.firstName}!`,
    'Вы зарегистрировались в Reklama Lab. Подтвердите, пожалуйста, свой email, перейдя по ссылке.',
    `Ссылка действует ${minutes(options.ttlSeconds)} мин. Если вы не регистрировались, просто проигнорируйте это письмо.`,
  ];
  return {
    to: options.to,
    subject: 'Подтвердите email — Reklama Lab',
    text: `${lines[0]}\n\n${lines[1]}\n\n${options.link}\n\n${lines[2]}\n\nReklama Lab\n`,
    html: html(lines, { href: options.link, label: 'Подтвердить email' }),
  };
}

export function resetPasswordMail(options: { to: string; firstName: string; link: string; ttlSeconds: number }): OutgoingMail {
  const lines = [
    `Здравствуйте, ${options.firstName}!`,
    'Мы получили запрос на восстановление пароля в Reklama Lab. Чтобы задать новый пароль, перейдите по ссылке.',
    `Ссылка действует ${minutes(options.ttlSeconds)} мин. и сработает один раз. Если вы не запрашивали восстановление, просто проигнорируйте это письмо: пароль останется прежним.`,
  ];
  return {
    to: options.to,
    subject: 'Восстановление пароля — Reklama Lab',
    text: `${lines[0]}\n\n${lines[1]}\n\n${options.link}\n\n${lines[2]}\n\nReklama Lab\n`,
    html: html(lines, { href: options.link, label: 'Задать новый пароль' }),
  };
}
