/**
 * The app's pino logger for code that runs outside a request (job workers, recovery): the same library
 * and level as fastify's request logger, so a failed job's error and stack land in the same log.
 */
import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config.js';

export type { Logger };

export function createLogger(config: Pick<AppConfig, 'logLevel'>, name?: string): Logger {
  return pino({ level: config.logLevel, ...(name ? { name } : {}) });
}
