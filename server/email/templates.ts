import type { OutgoingMail } from './mailer.js';

/** Links in mails lead to the PWA's routes (spec section 2), which post the token to the API. */
export function verifyEmailLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/auth/verify-email?token=${encodeURIComponent(token)}`;
}

export function resetPasswordLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/auth/reset-password/confirm?token=${encodeURIComponent(token)}`;
}

/** The sign-in screen and the screen that asks for a reset link (no token: anyone may open them). */
export function signInLink(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/auth`;
}

export function forgotPasswordLink(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/auth/reset-password`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function html(paragraphs: string[], ...links: { href: string; label: string }[]): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const buttons = links
    .map(
      (link) =>
        `<p><a href="${escapeHtml(link.href)}" style="display: inline-block; padding: 10px 18px; background: #2563eb; color: #ffffff; text-decoration: none; border-radius: 6px">${escapeHtml(link.label)}</a></p>`,
    )
    .join('\n');
  const hrefs = links.map((link) => escapeHtml(link.href)).join('<br>');
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><title>Reklama Lab</title></head>
<body style="font-family: Arial, sans-serif; color: #1f2937; line-height: 1.5">
${body}
${buttons}
<p style="color: #6b7280; font-size: 13px">Если кнопка не работает, скопируйте ссылку в браузер:<br>${hrefs}</p>
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

/**
 * To the owner of an address someone tried to register again: registration answers the same either
 * way (it does not say which addresses have accounts), so the owner learns it here, with the ways in.
 */
export function registrationAttemptMail(options: { to: string; firstName: string; signInLink: string; resetLink: string }): OutgoingMail {
  const lines = [
    `Здравствуйте, ${options.firstName}!`,
    'Кто-то пытался зарегистрироваться в Reklama Lab с вашим email. У вас уже есть аккаунт с этим адресом, поэтому новый не создан и в вашем ничего не изменилось.',
    'Если это были вы, просто войдите. Если не помните пароль, задайте новый.',
    'Если это были не вы, ничего делать не нужно.',
  ];
  return {
    to: options.to,
    subject: 'Попытка регистрации с вашим email — Reklama Lab',
    text: `${lines[0]}\n\n${lines[1]}\n\n${lines[2]}\n\nВойти: ${options.signInLink}\nЗадать новый пароль: ${options.resetLink}\n\n${lines[3]}\n\nReklama Lab\n`,
    html: html(lines, { href: options.signInLink, label: 'Войти' }, { href: options.resetLink, label: 'Задать новый пароль' }),
  };
}
