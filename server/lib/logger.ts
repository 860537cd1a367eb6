/**
 * The app's pino logger for code that runs outside a request (job workers, recovery): the same library
 * and level as fastify's request logger, so a failed job's error and stack land in the same log.
 */
import type { FastifyBaseLogger } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type LogFn, type Logger } from 'pino';
import type { AppConfig } from '../config.js';

export type { Logger };

export function createLogger(config: Pick<AppConfig, 'logLevel'>, name?: string): Logger {
  return pino({ level: config.logLevel, ...(name ? { name } : {}) });
}

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger (bound to its request id) that pino makes only when the request logs something at
 * an enabled level. fastify asks for one per request and pino builds a child at once (its bindings
 * serialised, about 1 µs), while at the production level most requests log nothing.
 */
class LazyChildLogger {
  #child: Logger | undefined;
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  constructor(parent: Logger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
  get level(): string {
    return (this.#child ?? this.#parent).level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  silent(): void {}
  log(level: LevelName, args: unknown[]): void {
    if ((this.#child ?? this.#parent).isLevelEnabled(level)) (this.real()[level] as (...logged: unknown[]) => void)(...args);
  }
  real(): Logger {
    return (this.#child ??= this.#parent.child(this.#bindings));
  }
}
interface LazyChildLogger extends Record<LevelName, LogFn> {}
for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
  LazyChildLogger.prototype[level] = function (this: LazyChildLogger, ...args: unknown[]) {
    this.log(level, args);
  } as LogFn;
}

/** fastify's `childLoggerFactory` for the app's pino logger (see LazyChildLogger). */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options);
  return new LazyChildLogger(logger as Logger, bindings) as unknown as FastifyBaseLogger;
}
