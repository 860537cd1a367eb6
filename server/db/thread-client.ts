/**
 * A PostgreSQL connection of a worker thread's own: the application's pool lives on the main thread, and
 * a thread that reads or writes much (the engine thread's documents and result rows) does it on its own
 * connection, so none of those bytes pass the event loop that answers the API.
 */
import pg from 'pg';
import { lowerPriorityOf } from '../lib/background-priority.js';

export interface ThreadConnection {
  /** The application pool's connection string (a plain string: it crosses into the thread). */
  connectionString: string;
  /** The embedded PostgreSQL runs on this machine: the connection's backend gets background priority as well. */
  lowerBackendPriority: boolean;
}

/**
 * Connects, and lowers the backend's priority when asked (lib/background-priority.ts: the work yields to
 * the API's one-row queries); the caller ends the client. A connection lost later must not crash the
 * thread through the client's 'error' event: the query in progress rejects instead.
 */
export async function connectThreadClient(connection: ThreadConnection, applicationName?: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: connection.connectionString, ...(applicationName ? { application_name: applicationName } : {}) });
  client.on('error', () => undefined);
  await client.connect();
  try {
    if (connection.lowerBackendPriority) {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      if (rows[0]) lowerPriorityOf(rows[0].pid);
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}
