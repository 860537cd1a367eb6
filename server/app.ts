import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import compress from '@fastify/compress';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { apiMessages } from '../contract/messages.js';
import type { AppConfig, TrustProxySetting } from './config.js';
import { availabilityOf, type DB } from './db/database.js';
import { RETRY_AFTER_SECONDS, type DatabaseAvailability } from './db/availability.js';
import { createMailer, type Mailer } from './email/mailer.js';
import { answerClientError, HttpError, RateLimitedError } from './lib/errors.js';
import { DocumentsBusyError } from './lib/documents.js';
import { authModeOf, valibotValidatorCompiler } from './lib/schema.js';
import { apiRouteOf, checkAnswerAgainstRoute } from './lib/routes.js';
import { lazyRequestLogger, RequestLogController } from './lib/logger.js';
import { registerMovedRoutes } from './lib/moved-routes.js';
import { authenticatePlugin, requireVerifiedEmail, accessChecks } from './auth/authenticate.js';
import { createRateLimitStorage, type RateLimitCounter } from './lib/rate-limit-store.js';
import { authRoutes } from './auth/routes.js';
import { organizationRoutes } from './organization/routes.js';
import { tokenRoutes } from './tokens/routes.js';
import { projectRoutes } from './projects/routes.js';
import { analysisRoutes } from './analysis/routes.js';
import { adminRoutes } from './admin/routes.js';
import { pageCheckRoutes } from './page-check/routes.js';
import { aiPlanRoutes } from './ai-plan/routes.js';
import { directConnectionRoutes } from './direct/routes.js';
import { auditChangeRoutes } from './monitoring/audit-changes-routes.js';
import { changeRoutes } from './changes/routes.js';
import { adminInvoiceRoutes, paymentRoutes } from './payments/routes.js';
import { monitoringRoutes } from './monitoring/routes.js';
import { reportApiRoutes } from './reports/routes.js';
import type { JobQueue } from './jobs/queue.js';
import { isClientRouteNavigation, isSharedReportPage } from './web/spa-fallback.js';
import { createProgressHub, type ProgressHub } from './lib/progress-stream.js';
import { paidRunKinds } from './runs/kinds.js';
import { IMPORT_JOB_CHANNEL } from './projects/import-jobs.js';

/** Every channel a progress stream follows: each paid-run kind's and the Direct import's. */
const progressChannels = [...Object.values(paidRunKinds).map((kind) => kind.channel), IMPORT_JOB_CHANNEL];

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    db: DB;
    mailer: Mailer;
    /** The job queue, when the process runs one (API tests may go without). */
    jobs: JobQueue | null;
    /** Connection string of the app's database, for dedicated connections (LISTEN); null when unknown. */
    databaseUrl: string | null;
    /** The live channel of run progress (server/lib/progress-stream.ts): one LISTEN connection for every stream. */
    progressHub: ProgressHub;
    /** A counter in the rate-limit storage (PostgreSQL or Redis) for limits the route plugin cannot express. */
    rateLimitCounter: (scope: string) => RateLimitCounter;
  }
}

export interface AppDependencies {
  config: AppConfig;
  db: DB;
  mailer?: Mailer;
  jobs?: JobQueue | null;
  /** The database's connection string (the embedded server's too), for LISTEN/NOTIFY. */
  databaseUrl?: string;
}

/**
 * PostgreSQL's "data exception" codes for a value it cannot store: untranslatable character (NUL in
 * text/jsonb), character not in repertoire, string too long, numeric out of range, invalid text
 * representation. They mean input got past validation, so the client hears 422, not 500.
 */
const DATA_REFUSED_CODES = new Set(['22P05', '22021', '22001', '22003', '22P02']);
function isDataRefusedByDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && DATA_REFUSED_CODES.has(code) && (error as { severity?: unknown }).severity !== undefined;
}

/** The answer while the database is unreachable: retry soon, nothing was done. */
const DATABASE_UNAVAILABLE = { error: apiMessages.databaseUnavailable, code: 'DATABASE_UNAVAILABLE' } as const;

/**
 * Answers smaller than this go uncompressed: below about a kilobyte the headers and the compressor's
 * framing eat most of the gain, and small JSON answers are the common case.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * `TRUST_PROXY` in fastify's terms. A hop count becomes a function of the hop index: fastify itself
 * refuses a bare number (it cannot tell the proxy from a direct client), and the operator who sets a
 * count has said the server is reachable only through that many proxies.
 */
export function fastifyTrustProxy(setting: TrustProxySetting): boolean | string | ((address: string, hop: number) => boolean) {
  if (setting === false || setting === 0) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting.join(',');
}

/** The headers a connect-style middleware that only sets fixed headers (helmet) sets on an answer. */
function headersSetBy(middleware: (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  middleware({ headers: {} } as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return Object.freeze(headers) as Record<string, string>;
}

/**
 * Builds the whole application without listening, so tests inject requests into the same app the
 * server runs. Order as in fastify/demo: infrastructure, then the app's own services, then routes.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  const app = createFastify(config);
  await registerServices(app, deps);
  const database = watchDatabase(app, deps.db);
  answerErrors(app, database);
  closeKeepAliveWhenClosing(app);
  const servesWeb = Boolean(config.webRoot && existsSync(path.join(config.webRoot, 'index.html')));
  answerNotFound(app, servesWeb);
  addSecurityHeaders(app);
  // While the database is known to be down, API calls are answered at once instead of each waiting
  // for a connection that cannot be made (and never start work they could not finish).
  app.addHook('onRequest', (request, reply, done) => {
    if (database.up || !request.url.startsWith('/api/v1/')) return done();
    reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send(DATABASE_UNAVAILABLE);
  });
  await registerHttpPlugins(app, deps);
  authenticateFromRouteTable(app);
  healthRoute(app, deps.db, database);
  await registerApiRoutes(app);
  if (servesWeb) await serveWeb(app, config.webRoot!);
  return app;
}

/** Fastify with the app's logging, limits, proxy trust and valibot schemas; nothing registered yet. */
function createFastify(config: AppConfig): FastifyInstance {
  const app = Fastify({
    logger: { level: config.logLevel, redact: ['req.headers.authorization', 'body.password'] },
    childLoggerFactory: lazyRequestLogger,
    // One line per answer, for errors, slow answers and a sample of the rest (see RequestLogController).
    logController: new RequestLogController(config.requestLog),
    // The client address the rate limits count by: the socket's, unless TRUST_PROXY names the proxies.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // While closing, a request that still arrives on an open keep-alive connection is answered normally
    // (with `Connection: close`, below) instead of fastify's English 503 outside our error format.
    return503OnClosing: false,
    bodyLimit: 2 * 1024 * 1024,
    // What Node's HTTP parser refuses (a URL or headers over 16 KB…) is answered in our format too.
    clientErrorHandler: answerClientError,
    ajv: { customOptions: { coerceTypes: false } },
  });
  app.setValidatorCompiler(valibotValidatorCompiler);
  // Response schemas only document the API; the objects are sent as they are.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // In tests the real answers of the routes registered from the route table are checked against their
  // response schemas (added before the compression hook, so the check reads the JSON text).
  if (config.env === 'test') app.addHook('onSend', checkAnswerAgainstRoute);
  return app;
}

/** What every route reaches through the app: the configuration, the database, mail, jobs and the progress hub. */
async function registerServices(app: FastifyInstance, deps: AppDependencies): Promise<void> {
  const { config } = deps;
  await app.register(
    fp(async (instance) => {
      instance.decorate('config', config);
    }, { name: 'config' }),
  );
  await app.register(
    fp(async (instance) => {
      instance.decorate('db', deps.db);
      instance.decorate('mailer', deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, log: instance.log }));
      instance.decorate('jobs', deps.jobs ?? null);
      instance.decorate('databaseUrl', deps.databaseUrl ?? config.databaseUrl ?? null);
    }, { name: 'db' }),
  );
  const progressHub = createProgressHub({ connectionString: app.databaseUrl, channels: progressChannels, log: app.log });
  app.decorate('progressHub', progressHub);
  app.addHook('preClose', async () => progressHub.endStreams());
  app.addHook('onClose', async () => progressHub.close());
}

/**
 * Losing PostgreSQL is an outage, not a reason for 500s: while it is unreachable the API answers 503
 * with Retry-After (see db/availability.ts for how it is noticed and found back). Logs each change.
 */
function watchDatabase(app: FastifyInstance, db: DB): DatabaseAvailability {
  const database = availabilityOf(db);
  const unsubscribeFromDatabase = database.onChange((up) =>
    up ? app.log.info('database: connection is back') : app.log.warn('database: connection lost, the API answers 503 until it is back'),
  );
  // From the moment the app starts closing (not once it has closed): the database stopping with the
  // server is no outage to report (the bench's end logged «connection lost» while its requests drained).
  app.addHook('preClose', (done) => {
    unsubscribeFromDatabase();
    done();
  });
  return database;
}

/** Every error as the spec's body in Russian: ours as they are, the database's refusals as 422, outages as 503, the rest 500. */
function answerErrors(app: FastifyInstance, database: DatabaseAvailability): void {
  app.setErrorHandler(async (error: FastifyError | HttpError, request, reply) => {
    if (error instanceof RateLimitedError || error instanceof DocumentsBusyError) reply.header('retry-after', String(error.retryAfterSeconds));
    if (error instanceof HttpError) return reply.status(error.statusCode).send(error.toBody());
    if (isDataRefusedByDatabase(error)) {
      // The contract should have refused this value first (contract/text.ts); never a 500 for bad input.
      request.log.warn({ err: error }, 'value refused by the database');
      return reply.status(422).send({ error: apiMessages.invalidData, code: 'INVALID_DATA' });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      // A route's own limit may say more (e.g. the current-password tries); the built answer carries it as `error`.
      const own = (error as { error?: unknown }).error;
      return reply.status(429).send({ error: typeof own === 'string' && /[а-яё]/i.test(own) ? own : apiMessages.tooManyRequests, code: 'RATE_LIMITED' });
    }
    if (status < 500) {
      const message = status === 413 ? 'Файл слишком большой' : status === 415 ? 'Неподдерживаемый тип содержимого' : 'Некорректный запрос';
      return reply.status(status).send({ error: message, code: error.code ?? 'BAD_REQUEST' });
    }
    if (await database.explain(error)) {
      // The transaction it ran in, if any, was not committed: the client may simply retry.
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send(DATABASE_UNAVAILABLE);
    }
    // 5xx: log everything, tell the client nothing about internals.
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: apiMessages.internal, code: 'INTERNAL' });
  });
}

/**
 * Graceful close: a request still running when the server starts closing answers with
 * `Connection: close`, so its keep-alive socket ends with it instead of holding close() open.
 */
function closeKeepAliveWhenClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // (A callback hook: every answer passes here, and an async one costs a promise each.)
  app.addHook('onSend', (request, reply, payload, done) => {
    if (closing && request.raw.httpVersionMajor < 2) reply.header('connection', 'close');
    done(null, payload);
  });
}

function answerNotFound(app: FastifyInstance, servesWeb: boolean): void {
  app.setNotFoundHandler((request, reply) => {
    // SPA fallback for browser navigations to client routes only; a missing file (a stale hashed chunk
    // after a deploy) must be a 404, never the HTML shell under a script's address.
    // The reply is not returned: returning it makes fastify await it (one more stream listener per hop of
    // the static plugin's lookup, enough for a MaxListeners warning on a fallback).
    if (servesWeb && isClientRouteNavigation({ method: request.method, url: request.url, accept: request.headers.accept })) {
      // A shared report's page (/r/<token>) stays out of search engines and never sends its address on.
      if (isSharedReportPage(request.url)) reply.header('x-robots-tag', 'noindex, nofollow').header('referrer-policy', 'no-referrer');
      reply.sendFile('index.html');
      return;
    }
    reply.status(404).send({ error: apiMessages.notFound, code: 'NOT_FOUND' });
  });
}

/**
 * Security headers (helmet). Their values are fixed by this configuration (no nonces), so helmet runs
 * once, here, and every answer gets the headers it set: running helmet's middleware per request (each
 * header checked and set on the raw response) cost authenticated reads several % of their CPU, and
 * @fastify/helmet, which also rebuilds the middleware per request, more.
 */
function addSecurityHeaders(app: FastifyInstance): void {
  const securityHeaders = headersSetBy(helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  }));
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });
}

/** Rate limits, compression, the OpenAPI document and its UI, and authentication. */
async function registerHttpPlugins(app: FastifyInstance, { db, config }: AppDependencies): Promise<void> {
  const rateLimitStorage = createRateLimitStorage(db, config.redisUrl ? { url: config.redisUrl, nameSpace: config.rateLimitNamespace } : undefined);
  app.addHook('onClose', rateLimitStorage.close);
  app.decorate('rateLimitCounter', rateLimitStorage.counter);
  await app.register(rateLimit, {
    global: false,
    ...rateLimitStorage.options,
    errorResponseBuilder: (_request, context) => ({ statusCode: 429, error: apiMessages.tooManyRequests, code: 'RATE_LIMITED', retryAfter: context.after }),
  });
  // API answers (JSON, CSV) in brotli or gzip when the client accepts it. Server-Sent Events are never
  // compressed: the event stream is written on the hijacked raw response, and the plugin's default type
  // filter leaves text/event-stream out as well, so each event leaves as soon as it is written.
  // Request bodies are not decompressed (no client sends them compressed; it would only invite bombs).
  await app.register(compress, { global: true, globalDecompression: false, encodings: ['br', 'gzip'], threshold: COMPRESSION_THRESHOLD_BYTES });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Reklama Lab API', version: '1.0.0', description: 'API of the Reklama Lab PWA. Errors: {error, code, detail[]}.' },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  await app.register(authenticatePlugin);
}

/**
 * Authentication comes from the contract's `auth` flag, for every route, here and nowhere else: the
 * check goes first among the route's onRequest hooks, so an anonymous call is 401 before its body is
 * streamed or validated, and before any role check (those run at preValidation).
 */
function authenticateFromRouteTable(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const mode = authModeOf(route.schema);
    if (!mode) return;
    const check = mode === 'optional' ? app.authenticateIfPresent : app.authenticate;
    route.onRequest = [check, ...hookList(route.onRequest)];
    // Who may call it (the table's `access`), then a verified e-mail (`verifiedEmail`): the first preValidation checks.
    const entry = apiRouteOf(route.schema);
    const checks = [...(entry?.access ? [accessChecks[entry.access]] : []), ...(entry?.verifiedEmail ? [requireVerifiedEmail] : [])];
    if (checks.length > 0) route.preValidation = [...checks, ...hookList(route.preValidation)];
  });
}

function healthRoute(app: FastifyInstance, db: DB, database: DatabaseAvailability): void {
  app.get('/api/health', { schema: { tags: ['ops'], summary: 'Liveness and database check' } }, async (_request, reply) => {
    if (database.up) {
      try {
        await db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
        return { status: 'ok', database: 'up' };
      } catch (error) {
        if (!(await database.explain(error))) throw error;
      }
    }
    return reply.status(503).header('retry-after', String(RETRY_AFTER_SECONDS)).send({ ...DATABASE_UNAVAILABLE, status: 'unavailable', database: 'down' });
  });
}

/** Each domain's routes under /api/v1, and the 308 redirects of the paths that moved. */
async function registerApiRoutes(app: FastifyInstance): Promise<void> {
  await app.register(authRoutes, { prefix: '/api/v1/auth' });
  await app.register(organizationRoutes, { prefix: '/api/v1/organizations' });
  await app.register(tokenRoutes, { prefix: '/api/v1/tokens' });
  await app.register(paymentRoutes, { prefix: '/api/v1/tokens' });
  await app.register(projectRoutes, { prefix: '/api/v1/projects' });
  await app.register(analysisRoutes, { prefix: '/api/v1' });
  await app.register(adminRoutes, { prefix: '/api/v1/admin' });
  await app.register(adminInvoiceRoutes, { prefix: '/api/v1/admin/invoices' });
  await app.register(pageCheckRoutes, { prefix: '/api/v1' });
  await app.register(aiPlanRoutes, { prefix: '/api/v1' });
  await app.register(directConnectionRoutes, { prefix: '/api/v1/direct/connections' });
  await app.register(monitoringRoutes, { prefix: '/api/v1' });
  await app.register(auditChangeRoutes, { prefix: '/api/v1' });
  await app.register(reportApiRoutes, { prefix: '/api/v1' });
  // Paths that moved answer 308 to their new place: the method and the body are kept.
  registerMovedRoutes(app);
  await app.register(changeRoutes, { prefix: '/api/v1' });
}

/** The built PWA from `webRoot`, with long caching for hashed assets only. */
async function serveWeb(app: FastifyInstance, webRoot: string): Promise<void> {
  await app.register(fastifyStatic, {
    root: path.resolve(webRoot),
    // Files are looked up on each request (not listed once at start-up), so a new build put in place
    // (or a switched folder) is served at once and the old hashed chunks are 404.
    wildcard: true,
    // The build writes `.br` and `.gz` next to each compressible asset (vite.config.ts); they are sent
    // to clients that accept them, with the original's type, instead of compressing on every request.
    preCompressed: true,
    // The plugin's own Cache-Control (max-age=0) would replace ours below.
    cacheControl: false,
    setHeaders: (res, filePath) => {
      // Hashed assets never change; the shell and the service worker must always be revalidated.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else res.setHeader('cache-control', 'no-cache');
    },
  });
}

/** A route option that takes one hook or several, as a list. */
function hookList<Hook>(hooks: Hook | Hook[] | undefined): Hook[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
