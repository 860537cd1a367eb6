import { sql, type Kysely } from 'kysely';

/**
 * The place migration 0060 sets old result blobs aside for the server to convert, on databases that ran
 * 0060 while it still converted them itself (there it is empty, and stays so).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS analysis_legacy_results (
      analysis_id uuid PRIMARY KEY,
      result jsonb,
      decisions jsonb
    )`.execute(db);
}

export async function down(): Promise<void> {
  // 0060's down drops the table; a database that had it from 0060 keeps it.
}
