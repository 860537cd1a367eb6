import { sql, type Kysely } from 'kysely';

/**
 * Every change that can end or alter a signed-in session NOTIFYs channel `sessions_changed`
 * (delivered at commit, to every server process), so each process's cache of verified sessions
 * (server/auth/session-cache.ts) drops what it holds at once, whatever code made the change: the API,
 * the admin CLI, a hand-written UPDATE.
 *
 * Payloads: `user:<user id>` (any change of the user row, its deletion: role, verification, email,
 * password, a block), `member:<user id>:<organization id>` (role changed, membership removed),
 * `session:<user id>:<family id>` (a refresh-token family's live token revoked or deleted).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION notify_user_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('sessions_changed', 'user:' || OLD.id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION notify_member_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('sessions_changed', 'member:' || OLD.user_id || ':' || OLD.organization_id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE FUNCTION notify_family_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('sessions_changed', 'session:' || OLD.user_id || ':' || OLD.family_id);
      RETURN NULL;
    END $$`.execute(db);

  await sql`CREATE TRIGGER users_sessions_changed AFTER UPDATE ON users FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION notify_user_sessions_changed()`.execute(db);
  await sql`CREATE TRIGGER users_deleted_sessions_changed AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION notify_user_sessions_changed()`.execute(db);
  await sql`CREATE TRIGGER memberships_sessions_changed AFTER UPDATE OR DELETE ON memberships FOR EACH ROW EXECUTE FUNCTION notify_member_sessions_changed()`.execute(db);
  // Rotation (rotated_at, successor_sealed) keeps the session: only a revocation or the removal of a live row ends it.
  await sql`
    CREATE TRIGGER refresh_tokens_revoked_sessions_changed AFTER UPDATE OF revoked_at ON refresh_tokens FOR EACH ROW
    WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL) EXECUTE FUNCTION notify_family_sessions_changed()`.execute(db);
  await sql`
    CREATE TRIGGER refresh_tokens_deleted_sessions_changed AFTER DELETE ON refresh_tokens FOR EACH ROW
    WHEN (OLD.revoked_at IS NULL) EXECUTE FUNCTION notify_family_sessions_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS refresh_tokens_deleted_sessions_changed ON refresh_tokens`.execute(db);
  await sql`DROP TRIGGER IF EXISTS refresh_tokens_revoked_sessions_changed ON refresh_tokens`.execute(db);
  await sql`DROP TRIGGER IF EXISTS memberships_sessions_changed ON memberships`.execute(db);
  await sql`DROP TRIGGER IF EXISTS users_deleted_sessions_changed ON users`.execute(db);
  await sql`DROP TRIGGER IF EXISTS users_sessions_changed ON users`.execute(db);
  await sql`DROP FUNCTION IF EXISTS notify_family_sessions_changed()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS notify_member_sessions_changed()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS notify_user_sessions_changed()`.execute(db);
}
