/**
 * /api/v1: analyses of the caller's organization. Starting one charges tokens once per idempotency
 * key and enqueues the run in the same transaction; progress is in the row (GET) and live over
 * Server-Sent Events; results, the user's decisions on suggestions, the export of accepted changes.
 * An analysis (or project) of another organization is 404.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { MessageChannel } from 'node:worker_threads';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { encodeExportNotes, EXPORT_NOTES_HEADER, finishedStatuses } from '../../contract/analysis.js';
import { analysisMessages as m } from '../../contract/messages.js';
import { analysisRoutes as routes } from '../../contract/routes/analyses.js';
import { callerOf } from '../auth/authenticate.js';
import { conflict, HttpError } from '../lib/errors.js';
import { answerRequests, receivePortStream } from '../lib/port-stream.js';
import { streamProgress } from '../lib/progress-stream.js';
import { addRoute } from '../lib/routes.js';
import { exportPool, WorkerLimitError } from '../lib/worker-pool.js';
import { findProject } from '../projects/service.js';
import type { ExportFileInput, ExportFileOutcome, ExportRead, ExportReadResult, ExportStreamMessage } from './export-file.js';
import { PROGRESS_CHANNEL } from './lifecycle.js';
import { changeDecisions, findCompletedAnalysis, replaceDecisions } from './results-pages.js';
import { resultRoutes } from './results-routes.js';
import { cancelAnalysis, exportSource, getAnalysis, listAnalyses, readExport, startAnalysis, type ExportSource } from './service.js';
import type { DB } from '../db/database.js';

const exportModule = new URL('./export-file.js', import.meta.url);

type ExportHead = Extract<ExportStreamMessage, { type: 'head' }>;

/** RFC 6266 file name: an ASCII fallback plus the UTF-8 form. */
const attachment = (fileName: string) => `attachment; filename="${fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

export const analysisRoutes: FastifyPluginAsync = async (app) => {

  addRoute(app, routes.start, async (request, reply) => {
    const { analysis, created } = await startAnalysis(app.db, app.jobs, callerOf(request), request.params.id, request.body);
    reply.status(created ? 201 : 200);
    return { analysis };
  });

  addRoute(app, routes.history, async (request) => {
    const caller = callerOf(request);
    await findProject(app.db, caller.organizationId, request.params.id);
    const { page, page_size, status, author_id } = request.query;
    return listAnalyses(app.db, { projectId: request.params.id, organizationId: caller.organizationId, page, pageSize: page_size, status, authorId: author_id });
  });

  addRoute(app, routes.get, async (request) => ({
    analysis: await getAnalysis(app.db, callerOf(request).organizationId, request.params.id),
  }));

  addRoute(app, routes.events, async (request, reply) => {
    const organizationId = callerOf(request).organizationId;
    const read = async () => ({ analysis: await getAnalysis(app.db, organizationId, request.params.id) });
    // 404 as an ordinary JSON answer, before the stream starts.
    await read();
    await streamProgress(app.progressHub, request, reply, { channel: PROGRESS_CHANNEL, id: request.params.id, read, finished: ({ analysis }) => finishedStatuses.includes(analysis.status) });
  });

  addRoute(app, routes.cancel, async (request) => ({
    analysis: await cancelAnalysis(app.db, app.jobs, callerOf(request), request.params.id),
  }));

  // Results, findings, suggestions, bulk decisions, semantic sections, scores: paged from the rows.
  await app.register(resultRoutes, { routes, organizationOf: (request) => callerOf(request).organizationId, bulkDecisions: routes.bulkDecisions });

  addRoute(app, routes.replaceDecisions, async (request) => {
    const caller = callerOf(request);
    const analysis = await findCompletedAnalysis(app.db, caller.organizationId, request.params.id);
    return { decisions: await replaceDecisions(app.db, analysis.id, caller.userId, request.body) };
  });

  addRoute(app, routes.changeDecisions, async (request) => {
    const caller = callerOf(request);
    const analysis = await findCompletedAnalysis(app.db, caller.organizationId, request.params.id);
    return changeDecisions(app.db, analysis.id, caller.userId, request.body.changes);
  });

  await app.register(exportRoutes);
};

/** The export of the accepted changes: a file the export thread writes piece by piece into the reply. */
const exportRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.export, async (request, reply) => {
    const source = await exportSource(app.db, callerOf(request).organizationId, request.params.id);
    const input: ExportFileInput = { platform: (request.query.platform ?? source.platform) as ExportFileInput['platform'], format: request.query.format, source: source.platform as ExportFileInput['source'] };
    return streamExport(app.db, source, input, reply);
  });
};

/**
 * The thread asks for the rows it needs (export-file.ts) and sends the file piece by piece, which goes to
 * the reply as it comes.
 */
async function streamExport(db: DB, source: ExportSource, input: ExportFileInput, reply: FastifyReply) {
  const { port1, port2 } = new MessageChannel();
  const body = new PassThrough();
  const stopped = new AbortController();
  let head: (message: ExportHead) => void = () => undefined;
  const headed = new Promise<ExportHead>((resolve) => (head = resolve));
  // A read that failed fails the thread; the route answers with that error (a 409 when the campaigns went meanwhile), not the thread's echo of it.
  let readFailure: unknown = null;
  answerRequests<ExportRead, ExportReadResult>(port1, (read) =>
    readExport(db, source, read).catch((error: unknown) => {
      readFailure ??= error;
      throw error;
    }),
  );
  // Each piece is acknowledged once the reply has taken it (at once, or when the body drains).
  receivePortStream<ExportStreamMessage>(port1, {
    handle: (message) => {
      if (message.type === 'head') return head(message);
      if (!body.write(Buffer.from(message.piece.buffer, message.piece.byteOffset, message.piece.byteLength))) return once(body, 'drain').then(() => undefined);
    },
  });
  // A client that goes away stops the thread.
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) stopped.abort(new Error('The client closed the export'));
  });
  const running = exportPool()
    .run<ExportFileOutcome>(exportModule, 'streamExportFile', [input, port2], { transferList: [port2], signal: stopped.signal })
    .catch((error: unknown) => {
      if (readFailure) throw readFailure;
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
  const { fileName, contentType, notes } = first;
  // Headers are out once the first piece is: a failure after that cuts the download short.
  running.then(
    () => body.end(),
    (error: unknown) => body.destroy(error as Error),
  );
  return reply
    .header('content-type', contentType)
    .header('content-disposition', attachment(`analysis-${source.analysis.id.slice(0, 8)}-${fileName}`))
    .header('cache-control', 'no-store')
    .header(EXPORT_NOTES_HEADER, encodeExportNotes(notes))
    .send(body);
}
