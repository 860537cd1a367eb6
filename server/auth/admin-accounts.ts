import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import * as v from 'valibot';
import { NewPasswordSchema, EmailSchema } from '../../contract/auth.js';
import { validationMessages } from '../../contract/messages.js';
import type { DB } from '../db/database.js';
import type { LedgerResult } from '../tokens/ledger.js';
import { applyAdminCredit } from '../tokens/service.js';
import { createAccount, findUserByEmail } from './accounts.js';
import { isCommonPassword } from './common-passwords.js';
import { hashPassword } from './passwords.js';

export const ADMIN_ORGANIZATION_NAME = 'Администрация';
export const DEFAULT_ADMIN_EMAIL = 'admin@reklama-lab.local';

/** A password that passes the rules of spec section 5: 16 characters with lower, upper case and digits. */
export function generatePassword(): string {
  const lower = 'abcdefghijkmnopqrstuvwxyz';
  const upper = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const digits = '23456789';
  const all = lower + upper + digits;
  const pick = (set: string) => set[randomInt(set.length)]!;
  const chars = [pick(lower), pick(upper), pick(digits)];
  while (chars.length < 16) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** Refuses an email or password the registration form would refuse, with the form's messages. */
export function checkCredentials(email: string, password: string): { email: string; password: string } {
  const emailResult = v.safeParse(EmailSchema, email);
  const passwordResult = v.safeParse(NewPasswordSchema, password);
  const problems = [...(emailResult.success ? [] : emailResult.issues), ...(passwordResult.success ? [] : passwordResult.issues)].map((issue) => issue.message);
  if (passwordResult.success && isCommonPassword(password)) problems.push(validationMessages.passwordCommon);
  if (problems.length > 0) throw new Error(problems.join('; '));
  return { email: (emailResult.output as string).toLowerCase(), password };
}

export interface AdminInput {
  email: string;
  password: string;
  firstName?: string;
  lastName?: string;
  welcomeCredit: number;
}

/**
 * Makes this email a verified platform administrator with this password: a new account (with its own
 * organization 'Администрация' and the welcome credit), or an existing one promoted.
 */
export async function upsertAdmin(db: DB, input: AdminInput): Promise<{ userId: string; created: boolean }> {
  const { email, password } = checkCredentials(input.email, input.password);
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const existing = await findUserByEmail(trx, email);
    if (existing) {
      await trx
        .updateTable('users')
        .set({
          role: 'admin',
          is_verified: true,
          password_hash: passwordHash,
          ...(input.firstName ? { first_name: input.firstName } : {}),
          ...(input.lastName ? { last_name: input.lastName } : {}),
          updated_at: sql<Date>`now()`,
        })
        .where('id', '=', existing.id)
        .execute();
      return { userId: existing.id, created: false };
    }
    const account = await createAccount(trx, {
      email,
      passwordHash,
      firstName: input.firstName || 'Администратор',
      lastName: input.lastName || 'Платформы',
      role: 'admin',
      isVerified: true,
      organization: { create: ADMIN_ORGANIZATION_NAME },
      welcomeCredit: input.welcomeCredit,
    });
    return { userId: account.userId, created: true };
  });
}

/** A manual credit by the operator (CLI): ledger entry and audit record in one transaction. */
export async function creditByEmail(
  db: DB,
  input: { email: string; amount: number; reason: string; idempotencyKey: string; actorUserId?: string | null; source: string },
): Promise<LedgerResult> {
  if (!Number.isInteger(input.amount) || input.amount <= 0) throw new Error('Сумма начисления должна быть целым положительным числом');
  if (!input.reason.trim()) throw new Error('Укажите причину начисления');
  return db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, input.email);
    if (!user) throw new Error(`Пользователь ${input.email} не найден`);
    return applyAdminCredit(trx, {
      recipient: { id: user.id, email: user.email },
      amount: input.amount,
      reason: input.reason.trim(),
      idempotencyKey: input.idempotencyKey,
      actorUserId: input.actorUserId ?? null,
      source: input.source,
    });
  });
}
