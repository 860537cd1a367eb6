/**
 * /api/v1: analyses of the caller's organization. Starting one charges tokens once per idempotency
 * key and enqueues the run in the same transaction; progress is in the row (GET) and live over
 * Server-Sent Events; results, the user's decisions on suggestions, the export of accepted changes.
 * An analysis (or project) of another organization is 404.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import type { FastifyPluginAsync } from 'fastify';
import {
  AnalysisHistoryPageSchema,
  AnalysisHistoryQuerySchema,
  AnalysisParamsSchema,
  AnalysisResponseSchema,
  DecisionsResponseSchema,
  DecisionsSchema,
  ExportQuerySchema,
  finishedStatuses,
  StartAnalysisSchema,
  type Analysis,
} from '../../src/contract/analysis.js';
import { DecisionChangesResponseSchema, DecisionChangesSchema } from '../../src/contract/analysis-pages.js';
import { ErrorBodySchema, IdParamsSchema } from '../../src/contract/common.js';
import { analysisMessages as m } from '../../src/contract/messages.js';
import { callerOf } from '../auth/authenticate.js';
import { conflict, HttpError } from '../lib/errors.js';
import { exportPool, WorkerLimitError } from '../lib/worker-pool.js';
import { routeSchema, type Req, type RouteContract } from '../lib/schema.js';
import { findProject } from '../projects/service.js';
import type { ExportFileInput, ExportFileOutcome, ExportStreamAck, ExportStreamMessage } from './export-file.js';
import { createAnalysisEvents } from './progress-events.js';
import { changeDecisions, findCompletedAnalysis, replaceDecisions } from './results-pages.js';
import { resultRoutes } from './results-routes.js';
import { cancelAnalysis, exportSource, getAnalysis, listAnalyses, startAnalysis } from './service.js';

const exportModule = new URL('./export-file.js', import.meta.url);
/** A comment line this often keeps proxies and the browser from closing an idle stream. */
const SSE_HEARTBEAT_MS = 15_000;

const tags = ['analysis'];
const errors = { 401: ErrorBodySchema, 404: ErrorBodySchema, 422: ErrorBodySchema };

const start = {
  params: IdParamsSchema,
  body: StartAnalysisSchema,
  response: { 201: AnalysisResponseSchema, 200: AnalysisResponseSchema, 402: ErrorBodySchema, 409: ErrorBodySchema, ...errors },
  tags,
  summary: 'Start an analysis of chosen campaigns: charges the price of /tokens/calculate-cost (kinds scoring+semantic) once per idempotency_key',
  auth: true,
} satisfies RouteContract;
const history = {
  params: IdParamsSchema,
  querystring: AnalysisHistoryQuerySchema,
  response: { 200: AnalysisHistoryPageSchema, ...errors },
  tags,
  summary: 'Analyses of a project, newest first; filter by status and by author',
  auth: true,
} satisfies RouteContract;
const getOne = { params: AnalysisParamsSchema, response: { 200: AnalysisResponseSchema, ...errors }, tags, summary: 'An analysis: status, stage, progress, score, summary', auth: true } satisfies RouteContract;
const events = {
  params: AnalysisParamsSchema,
  tags,
  summary: 'Server-Sent Events: `progress` {analysis} on connect and on every change, then `done` {analysis} and the stream ends',
  auth: true,
} satisfies RouteContract;
const cancel = { params: AnalysisParamsSchema, response: { 200: AnalysisResponseSchema, 403: ErrorBodySchema, 409: ErrorBodySchema, ...errors }, tags, summary: 'Cancel a queued or running analysis; its tokens are refunded', auth: true } satisfies RouteContract;
const decisions = {
  params: AnalysisParamsSchema,
  body: DecisionsSchema,
  response: { 200: DecisionsResponseSchema, 409: ErrorBodySchema, ...errors },
  tags,
  summary: 'Accept or reject suggestions (replaces the previous choice)',
  auth: true,
} satisfies RouteContract;
const decisionChanges = {
  params: AnalysisParamsSchema,
  body: DecisionChangesSchema,
  response: { 200: DecisionChangesResponseSchema, 409: ErrorBodySchema, ...errors },
  tags,
  summary: 'Change the decisions of 1–500 suggestions (accepted, rejected, undecided; value for an accepted ad fix); the rest stay. Answers the totals',
  auth: true,
} satisfies RouteContract;
const exportChanges = {
  params: AnalysisParamsSchema,
  querystring: ExportQuerySchema,
  response: { 409: ErrorBodySchema, ...errors },
  tags,
  summary: 'Download the accepted changes as a bulk-upload file (Yandex Direct CSV/XLSX, Google Ads Editor CSV)',
  auth: true,
} satisfies RouteContract;

/**
 * SSE streams open in this process: `open` counts them, `'closed'` is emitted when one ends (after
 * `done`, a client disconnect or a server shutdown) with its subscription and timers released.
 */
export const analysisStreams = Object.assign(new EventEmitter(), { open: 0 });

/** RFC 6266 file name: an ASCII fallback plus the UTF-8 form. */
const attachment = (fileName: string) => `attachment; filename="${fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

export const analysisRoutes: FastifyPluginAsync = async (app) => {
  const progressEvents = createAnalysisEvents({ connectionString: app.databaseUrl, log: app.log });
  /** Open SSE streams, ended before the server closes (an open stream would hold `close()` forever). */
  const openStreams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...openStreams]) end();
  });
  app.addHook('onClose', async () => progressEvents.close());

  app.post<Req<typeof start>>('/projects/:id/analyses', { schema: routeSchema(start) }, async (request, reply) => {
    const { analysis, created } = await startAnalysis(app.db, app.jobs, callerOf(request), request.params.id, request.body);
    return reply.status(created ? 201 : 200).send({ analysis });
  });

  app.get<Req<typeof history>>('/projects/:id/analyses', { schema: routeSchema(history) }, async (request) => {
    const caller = callerOf(request);
    await findProject(app.db, caller.organizationId, request.params.id);
    const { page, page_size, status, author_id } = request.query;
    return listAnalyses(app.db, { projectId: request.params.id, organizationId: caller.organizationId, page, pageSize: page_size, status, authorId: author_id });
  });

  app.get<Req<typeof getOne>>('/analyses/:id', { schema: routeSchema(getOne) }, async (request) => ({
    analysis: await getAnalysis(app.db, callerOf(request).organizationId, request.params.id),
  }));

  app.get<Req<typeof events>>('/analyses/:id/events', { schema: routeSchema(events) }, async (request, reply) => {
    const organizationId = callerOf(request).organizationId;
    const analysisId = request.params.id;
    // 404 as an ordinary JSON answer, before the stream starts.
    await getAnalysis(app.db, organizationId, analysisId);

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx and similar proxies would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    raw.write('retry: 3000\n\n');

    let ended = false;
    let lastSent = '';
    let reading = false;
    let readAgain = false;
    const write = (event: 'progress' | 'done', analysis: Analysis) => raw.write(`event: ${event}\ndata: ${JSON.stringify({ analysis })}\n\n`);
    const end = () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      clearInterval(ping);
      openStreams.delete(end);
      raw.end();
      analysisStreams.open--;
      analysisStreams.emit('closed', analysisId);
    };
    // One read at a time; notifications during a read ask for one more read, not one each.
    const refresh = async () => {
      if (reading) {
        readAgain = true;
        return;
      }
      reading = true;
      try {
        do {
          readAgain = false;
          const analysis = await getAnalysis(app.db, organizationId, analysisId).catch(() => null);
          if (ended) return;
          if (!analysis) return end();
          const state = JSON.stringify(analysis);
          if (state !== lastSent) {
            lastSent = state;
            write('progress', analysis);
          }
          if (finishedStatuses.includes(analysis.status)) {
            write('done', analysis);
            return end();
          }
        } while (readAgain);
      } finally {
        reading = false;
      }
    };

    // A failed read or write ends this stream; it must never become an unhandled rejection.
    const refreshOrEnd = () =>
      refresh().catch((error: unknown) => {
        request.log.warn({ err: error, analysisId }, 'progress stream failed');
        end();
      });
    const unsubscribe = progressEvents.subscribe(analysisId, () => void refreshOrEnd());
    const ping = setInterval(() => raw.write(': ping\n\n'), SSE_HEARTBEAT_MS);
    openStreams.add(end);
    analysisStreams.open++;
    raw.on('close', end);
    await refreshOrEnd();
  });

  app.post<Req<typeof cancel>>('/analyses/:id/cancel', { schema: routeSchema(cancel) }, async (request) => ({
    analysis: await cancelAnalysis(app.db, app.jobs, callerOf(request), request.params.id),
  }));

  // Results, findings, suggestions, bulk decisions, semantic sections, scores: paged from the rows.
  await app.register(resultRoutes, { tags, organizationOf: (request) => callerOf(request).organizationId, decisions: true });

  app.put<Req<typeof decisions>>('/analyses/:id/decisions', { schema: routeSchema(decisions) }, async (request) => {
    const caller = callerOf(request);
    const analysis = await findCompletedAnalysis(app.db, caller.organizationId, request.params.id);
    return { decisions: await replaceDecisions(app.db, analysis.id, caller.userId, request.body) };
  });

  app.patch<Req<typeof decisionChanges>>('/analyses/:id/decisions', { schema: routeSchema(decisionChanges) }, async (request) => {
    const caller = callerOf(request);
    const analysis = await findCompletedAnalysis(app.db, caller.organizationId, request.params.id);
    return changeDecisions(app.db, analysis.id, caller.userId, request.body.changes);
  });

  app.get<Req<typeof exportChanges>>('/analyses/:id/export', { schema: routeSchema(exportChanges) }, async (request, reply) => {
    const source = await exportSource(app.db, callerOf(request).organizationId, request.params.id);
    const input: ExportFileInput = {
      platform: (request.query.platform ?? source.platform) as ExportFileInput['platform'],
      campaigns: source.campaigns,
      suggestions: source.suggestions,
      accepted: source.accepted,
      format: request.query.format,
    };
    // The file comes from the export thread piece by piece (export-file.ts) and goes to the reply as it comes.
    const { port1, port2 } = new MessageChannel();
    const body = new PassThrough();
    const stopped = new AbortController();
    let head: (message: Extract<ExportStreamMessage, { type: 'head' }>) => void = () => undefined;
    const headed = new Promise<Extract<ExportStreamMessage, { type: 'head' }>>((resolve) => (head = resolve));
    port1.on('message', (message: ExportStreamMessage) => {
      if (message.type === 'head') return head(message);
      const piece = Buffer.from(message.piece.buffer, message.piece.byteOffset, message.piece.byteLength);
      const ack = () => port1.postMessage({ type: 'ack' } satisfies ExportStreamAck);
      if (body.write(piece)) ack();
      else body.once('drain', ack);
    });
    // A client that goes away stops the thread.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) stopped.abort(new Error('The client closed the export'));
    });
    const running = exportPool()
      .run<ExportFileOutcome>(exportModule, 'streamExportFile', [input, port2], { transferList: [port2], signal: stopped.signal })
      .catch((error: unknown) => {
        // Over the export thread's heap or time limit: the thread is replaced, the user gets a Russian answer.
        if (error instanceof WorkerLimitError) throw new HttpError(422, 'EXPORT_TOO_LARGE', m.exportTooLarge);
        throw error;
      })
      .finally(() => port1.close());
    const first = await Promise.race([headed, running]);
    if (!('type' in first)) {
      if (first.kind === 'empty') throw conflict(m.nothingToExport, 'NOTHING_TO_EXPORT');
      if (first.kind === 'format_unavailable') throw new HttpError(422, 'EXPORT_FORMAT_UNAVAILABLE', m.exportFormatUnavailable, [{ loc: ['querystring', 'format'], msg: m.exportFormatUnavailable }]);
    }
    const { fileName, contentType } = 'type' in first ? first : { fileName: first.fileName, contentType: first.contentType };
    // Headers are out once the first piece is: a failure after that cuts the download short.
    running.then(
      () => body.end(),
      (error: unknown) => body.destroy(error as Error),
    );
    return reply
      .header('content-type', contentType)
      .header('content-disposition', attachment(`analysis-${source.analysis.id.slice(0, 8)}-${fileName}`))
      .header('cache-control', 'no-store')
      .send(body);
  });
};
