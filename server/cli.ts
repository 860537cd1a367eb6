import { describeStartupFailure, StartupError } from './startup-error.js';
import { runCommand } from './auth/admin-commands.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/connect.js';

/**
 * `npm run admin -- <command>`: operator commands on the database of DATABASE_URL or of DATA_DIR. With the
 * embedded PostgreSQL, a server running on the same DATA_DIR keeps running: the CLI connects to its
 * PostgreSQL (found through `postmaster.pid` and `pg-password`) and leaves it running; with no server it
 * starts the PostgreSQL itself for the command and stops it after.
 */
async function main() {
  const config = loadConfig(process.env);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, shareRunning: true });
  try {
    await runCommand(process.argv.slice(2), { db: database.db, config, print: (line) => console.log(line) });
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof StartupError ? describeStartupFailure(error, 'opening the database') : error instanceof Error ? error.message : String(error));
  process.exit(1);
});
