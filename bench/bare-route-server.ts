/**
 * The baseline of the request-path benches, in a process of its own: bare fastify (no plugins, default
 * logger off, fastify's default JSON.stringify) whose routes each run ONE raw `pg` query on the app's
 * database, the very queries the measured API routes run, and answer the row as JSON. Prints one JSON
 * line `{"url": …}` when it listens; stops on SIGTERM.
 */
import Fastify from 'fastify';
import pg from 'pg';

const databaseUrl = process.env.BARE_DATABASE_URL;
const email = process.env.BARE_USER_EMAIL;
if (!databaseUrl || !email) throw new Error('BARE_DATABASE_URL and BARE_USER_EMAIL are required');

// The same pool size as the app's (server/db/database.ts).
const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
const userId = (await pool.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).rows[0]?.id;
if (!userId) throw new Error(`no user ${email}`);

const userQuery = 'SELECT id, email, first_name, last_name, role, is_verified FROM users WHERE id = $1';
const balanceQuery = 'SELECT balance FROM token_balances WHERE user_id = $1';
const app = Fastify();
app.get('/bench/bare', async () => ({ ok: true }));
app.get('/bench/pg-user', async () => (await pool.query(userQuery, [userId])).rows[0]);
app.get('/bench/pg-balance', async () => ({ balance: (await pool.query(balanceQuery, [userId])).rows[0]?.balance ?? 0 }));

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no address');
console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));

const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
