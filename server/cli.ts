import { describeStartupFailure, StartupError } from './startup-error.js';
import { runCommand } from './auth/admin-commands.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/connect.js';

/**
 * `npm run admin -- <command>`: operator commands on the database of DATA_DIR (the embedded PostgreSQL:
 * stop the server first, one PostgreSQL runs per data folder) or of DATABASE_URL.
 */
async function main() {
  const config = loadConfig(process.env);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
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
