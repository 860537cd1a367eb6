import { sql } from 'kysely';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';
import { ADMIN_ORGANIZATION_NAME, DEFAULT_ADMIN_EMAIL, checkCredentials, generatePassword } from './admin-accounts.js';
import { createAccount, findUserByEmail } from './accounts.js';
import { hashPassword } from './passwords.js';

/**
 * On a start with no platform administrator, creates one (email `ADMIN_EMAIL` or admin@reklama-lab.local,
 * password `ADMIN_PASSWORD` or a random one) and prints how to log in. Later starts find the admin and
 * print nothing, so a generated password is shown exactly once.
 */
export async function ensureFirstAdmin(options: {
  db: DB;
  config: Pick<AppConfig, 'publicUrl' | 'welcomeCredit'>;
  print: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}): Promise<void> {
  const env = options.env ?? process.env;
  const generated = !env.ADMIN_PASSWORD;
  const { email, password } = checkCredentials(env.ADMIN_EMAIL || DEFAULT_ADMIN_EMAIL, env.ADMIN_PASSWORD || generatePassword());

  const outcome = await options.db.transaction().execute(async (trx) => {
    // Several processes may start at once on one database: only one of them creates the admin.
    await sql`select pg_advisory_xact_lock(hashtext('reklama-lab:first-admin'))`.execute(trx);
    const admin = await trx.selectFrom('users').select('id').where('role', '=', 'admin').limit(1).executeTakeFirst();
    if (admin) return 'exists' as const;
    const existing = await findUserByEmail(trx, email);
    if (existing) {
      // The address already has an account: it becomes the administrator and keeps its password.
      await trx.updateTable('users').set({ role: 'admin', updated_at: sql<Date>`now()` }).where('id', '=', existing.id).execute();
      return 'promoted' as const;
    }
    await createAccount(trx, {
      email,
      passwordHash: await hashPassword(password),
      firstName: 'Администратор',
      lastName: 'Платформы',
      role: 'admin',
      isVerified: true,
      organization: { create: ADMIN_ORGANIZATION_NAME },
      welcomeCredit: options.config.welcomeCredit,
    });
    return 'created' as const;
  });

  const loginUrl = `${options.config.publicUrl.replace(/\/+$/, '')}/auth`;
  if (outcome === 'created') {
    options.print(
      [
        '',
        'Создан первый администратор платформы:',
        `  Вход:   ${loginUrl}`,
        `  Email:  ${email}`,
        `  Пароль: ${generated ? password : '(из ADMIN_PASSWORD)'}`,
        generated ? 'Сохраните пароль: он показан один раз. Сменить его: npm run admin -- create-admin --email … --password …' : '',
        '',
      ].join('\n'),
    );
  } else if (outcome === 'promoted') {
    options.print(`\nПользователь ${email} назначен администратором платформы (пароль прежний). Вход: ${loginUrl}\n`);
  }
}
