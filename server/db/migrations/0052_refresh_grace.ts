import type { Kysely } from 'kysely';

/**
 * The refresh token a rotation issued, sealed (AES-256-GCM with `SECRETS_KEY`, never in clear text), kept
 * on the retired row so the same old token presented again within the grace window (a second tab that
 * refreshed at the same moment) gets the same answer instead of revoking the session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('successor_sealed', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').dropColumn('successor_sealed').execute();
}
