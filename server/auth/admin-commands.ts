import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { upsertAdmin, creditByEmail } from './admin-accounts.js';
import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';

/** The operator commands of `npm run admin` (server/cli.ts), on an open database. */
const USAGE = `Использование:
  npm run admin -- create-admin --email E --password P [--first-name Имя] [--last-name Фамилия]
  npm run admin -- credit --email E --amount N --reason "причина" [--idempotency-key K]`;

export async function runCommand(argv: string[], deps: { db: DB; config: Pick<AppConfig, 'welcomeCredit'>; print: (line: string) => void }): Promise<void> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      amount: { type: 'string' },
      reason: { type: 'string' },
      'idempotency-key': { type: 'string' },
    },
    strict: true,
  });
  const required = (name: keyof typeof values) => {
    const value = values[name];
    if (!value) throw new Error(`Не указан --${name}\n${USAGE}`);
    return value;
  };

  if (command === 'create-admin') {
    const email = required('email');
    const result = await upsertAdmin(deps.db, {
      email,
      password: required('password'),
      firstName: values['first-name'],
      lastName: values['last-name'],
      welcomeCredit: deps.config.welcomeCredit,
    });
    deps.print(result.created ? `Администратор ${email} создан.` : `Пользователь ${email} теперь администратор платформы, пароль обновлён.`);
    return;
  }
  if (command === 'credit') {
    const email = required('email');
    const amount = Number(required('amount'));
    const result = await creditByEmail(deps.db, {
      email,
      amount,
      reason: required('reason'),
      // A retried command with the same key credits once.
      idempotencyKey: values['idempotency-key'] ?? `cli-credit:${randomUUID()}`,
      source: 'cli',
    });
    deps.print(result.applied ? `Начислено ${amount} токенов пользователю ${email}. Баланс: ${result.balance}.` : `Начисление с этим ключом уже было. Баланс: ${result.balance}.`);
    return;
  }
  throw new Error(USAGE);
}
