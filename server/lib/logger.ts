/**
 * The app's pino logger for code that runs outside a request (job workers, recovery): the same library
 * and level as fastify's request logger, so a failed job's error and stack land in the same log.
 */
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
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

/** Which answers the request log keeps (`REQUEST_LOG_SAMPLE`, `SLOW_REQUEST_MS`; docs/operations.md). */
export interface RequestLogPolicy {
  /** One answer in this many is logged at info (1: every answer; 0: none). Errors and slow answers always are. */
  sampleEvery: number;
  /** An answer that took at least this long (ms, from the request's arrival) is logged at warn, whatever the sampling. */
  slowMs: number;
}

/**
 * fastify's request log lines as operations need them, at a cost the hot path can bear. fastify logs two
 * lines per request at info («incoming request», «request completed»), each serialised and written at
 * once: about a fifth of the CPU an authenticated read costs as deployed. Here a request gets one line,
 * when it is answered, with the request and the answer in it: always for an error (5xx, or a failed
 * answer) and for a slow answer, for the others one in `sampleEvery` (a sample of the traffic).
 * Its arrival is logged at debug only. The lines a request's own code logs (request.log.warn …) are untouched.
 */
export class RequestLogController extends LogController {
  readonly #policy: RequestLogPolicy;
  #answered = 0;
  constructor(policy: RequestLogPolicy) {
    super();
    this.#policy = policy;
  }
  /** A request's arrival only at `debug` (LOG_LEVEL=debug: following requests as they come in). */
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const responseTime = reply.elapsedTime;
    if (error || reply.statusCode >= 500) {
      reply.log.error({ req: request, res: reply, err: error ?? undefined, responseTime }, error ? 'request errored' : 'request completed');
    } else if (responseTime >= this.#policy.slowMs) {
      reply.log.warn({ req: request, res: reply, responseTime }, 'slow request');
    } else if (this.#policy.sampleEvery > 0 && ++this.#answered % this.#policy.sampleEvery === 0) {
      reply.log.info({ req: request, res: reply, responseTime, sampledOneIn: this.#policy.sampleEvery }, 'request completed');
    }
  }
}
