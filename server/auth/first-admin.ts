import type { AppConfig } from '../config.js';
import type { DB } from '../db/database.js';

// Placeholder: the auth domain creates the first platform admin here.
export async function ensureFirstAdmin(_options: { db: DB; config: AppConfig; print: (text: string) => void }): Promise<void> {}
