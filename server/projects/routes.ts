/**
 * /api/v1/projects: projects of the caller's organization, their campaign imports (preview, then
 * save) and the campaign tree. Every member of the organization sees every project of it; a project
 * of another organization is 404. Each call is declared once in the route table
 * (contract/routes/projects.ts) and registered from it with `addRoute`.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { projectMessages } from '../../contract/messages.js';
import { AdPlatformSchema, isImportJobFinished } from '../../contract/projects.js';
import { projectRoutes as routes } from '../../contract/routes/projects.js';
import { pathOf } from '../../contract/routes/route.js';
import { callerOf } from '../auth/authenticate.js';
import { connectionAccessToken } from '../direct/connections.js';
import { HttpError } from '../lib/errors.js';
import { importPool, importTimeLimitMs, PoolBusyError, WorkerLimitError } from '../lib/worker-pool.js';
import { streamProgress } from '../lib/progress-stream.js';
import { addRoute } from '../lib/routes.js';
import { parseOrThrow } from '../lib/schema.js';
import { sealSecret } from '../lib/secret-box.js';
import { takeImportLease } from './import-lease.js';
import type { ParsedImport } from './import-worker.js';
import { getImportJob, IMPORT_JOB_CHANNEL, startDirectImport } from './import-jobs.js';
import { buildTemplateFile, templateFileName } from './importers/template.js';
import {
  campaignDocument,
  campaignTree,
  createProject,
  DIRECT_TOKEN_CONTEXT,
  deleteProject,
  findProject,
  importIntoProject,
  listProjects,
  projectDetail,
  storedDirectAccess,
  updateProject,
  type DirectAccess,
} from './service.js';
import { discardDraft, fillDraft, finishDraft, openDraft, setDraftPeriod } from './drafts.js';
import { MAX_UPLOAD_BYTES, receiveUploads, removeAbandonedUploads, UPLOAD_TIME_LIMIT_MS, UploadSpace } from './upload.js';
import { measureUpload } from './upload-size.js';
import { importLimits } from './importers/limits.js';

const importWorker = new URL('./import-worker.js', import.meta.url);
/** The preview's problem list in an error answer stays readable; the rest is counted. */
const MAX_DETAIL_ROWS = 200;

/** Import problems as the `detail` rows of an error answer: where (file, row, column) and what. */
function problemsAsDetail(problems: ParsedImport['problems']) {
  const ordered = [...problems].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return ordered.slice(0, MAX_DETAIL_ROWS).map((problem) => ({
    loc: ['files', problem.file, ...(problem.row !== undefined ? [problem.row] : []), ...(problem.column !== undefined ? [problem.column] : [])],
    msg: problem.message,
  }));
}

/** What a finished parse means for the client: a preview to keep, or a 422 with the rows to fix. */
function requireImportable(parsed: ParsedImport): ParsedImport {
  // Over a limit (size, rows, cell length): the limit's own message says what to do.
  if (parsed.limit) throw new HttpError(422, 'IMPORT_TOO_LARGE', parsed.limit, problemsAsDetail(parsed.problems));
  if (parsed.problems.some((problem) => problem.severity === 'error') || (!parsed.stored && parsed.counts.campaigns + parsed.counts.searchQueries > 0)) {
    throw new HttpError(422, 'IMPORT_FAILED', projectMessages.importFailed, problemsAsDetail(parsed.problems));
  }
  if (parsed.counts.campaigns === 0 && parsed.counts.searchQueries === 0) {
    throw new HttpError(422, 'IMPORT_EMPTY', projectMessages.importNothingFound, [{ loc: ['files'], msg: projectMessages.importNothingFound }]);
  }
  return parsed;
}

export const projectRoutes: FastifyPluginAsync = async (app) => {
  await app.register(projectRecordRoutes);
  await app.register(fileImportRoutes);
  await app.register(directImportRoutes);
  await app.register(importDraftRoutes);
  await app.register(campaignRoutes);
};

/** The organization's projects: the list, one project, and creating, changing and deleting one. */
const projectRecordRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.list, async (request) => {
    const caller = callerOf(request);
    const { search, sort, order, page, page_size } = request.query;
    return listProjects(app.db, caller.organizationId, { search: search || undefined, sort, order, page, page_size });
  });

  addRoute(app, routes.get, async (request) => {
    return projectDetail(app.db, callerOf(request).organizationId, request.params.id);
  });

  addRoute(app, routes.create, async (request, reply) => {
    const caller = callerOf(request);
    const { draft_id, ...fields } = request.body;
    const id = await createProject(app.db, caller, fields, draft_id);
    reply.status(201);
    return projectDetail(app.db, caller.organizationId, id);
  });

  addRoute(app, routes.update, async (request) => {
    const caller = callerOf(request);
    await updateProject(app.db, caller.organizationId, request.params.id, request.body);
    return projectDetail(app.db, caller.organizationId, request.params.id);
  });

  addRoute(app, routes.remove, async (request, reply) => {
    await deleteProject(app.db, callerOf(request), request.params.id);
    reply.status(204);
    return null;
  });
};

/** Campaigns from files: the template to fill, and the upload parsed into a draft for preview. */
const fileImportRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.importTemplate, async (_request, reply) => {
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${templateFileName}"`);
    return Buffer.from(buildTemplateFile());
  });

  // Multipart parsing only where files are uploaded: the plugin hooks every request of its scope (a
  // listener on each response, a clean-up after it), which every other route would pay for nothing.
  await app.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 20, fields: 20, parts: 40 } });
    // The bytes of the uploads on this process's disk, over all users (UPLOADS_IN_FLIGHT_MB).
    const uploadSpace = new UploadSpace(app.config.uploads.maxBytesInFlight);
    // The longest an upload lives: its time limit, a parse that waits for a thread, and that parse running to its time limit.
    const uploadLifetimeMs = UPLOAD_TIME_LIMIT_MS + 2 * importTimeLimitMs(importLimits.maxExpandedBytes) + 60_000;
    // Folders left by a process that died mid-upload go when the next one starts.
    uploads.addHook('onReady', async () => {
      const removed = await removeAbandonedUploads(app.config.uploads.tempDir, uploadLifetimeMs);
      if (removed.length > 0) app.log.warn({ folders: removed }, 'abandoned upload folders removed');
    });
    addRoute(uploads, routes.previewFiles, async (request) => {
      const caller = callerOf(request);
      if (!request.isMultipart()) throw new HttpError(415, 'NOT_MULTIPART', projectMessages.notMultipart);
      // One upload per user at a time, refused rather than queued, and before its first byte is read: a second
      // upload (a user or a script that sent it twice) writes nothing and learns it at once.
      const releaseLease = await takeImportLease(app.db, caller.userId, uploadLifetimeMs);
      if (!releaseLease) throw new HttpError(429, 'IMPORT_IN_PROGRESS', projectMessages.importInProgress);
      // A thread starts loading the importers while the files arrive (only when the pool is idle: never
      // queued behind, or in the way of, a parse); the parse waits for it, and so runs in that warm thread.
      const pool = importPool();
      const threadReady = pool.load.running + pool.load.waiting === 0 ? pool.run(importWorker, 'loadImporters').catch(() => undefined) : null;
      // From here the upload holds the lease; its cleanup releases it, and a failed receive has done so already.
      const upload = await receiveUploads(request, { space: uploadSpace, tempDir: app.config.uploads.tempDir, release: releaseLease });
      try {
        const { files, fields } = upload;
        const platform = fields.platform ? parseOrThrow(AdPlatformSchema, fields.platform, 'platform') : undefined;
        // A zip bomb (or simply too much) is refused from the files' sizes on disk, without a thread.
        const { expandedBytes, problems: oversized } = await measureUpload(files);
        if (oversized) throw new HttpError(422, 'IMPORT_TOO_LARGE', oversized[0].message, problemsAsDetail(oversized));
        const fileNames = files.map((file) => file.name);
        // The thread writes the account into the draft's rows as it goes; a failed or refused import discards them.
        const draftId = await openDraft(app.db, caller, 'files', fileNames, null);
        try {
          let parsed: ParsedImport;
          await threadReady;
          try {
            parsed = await fillDraft(app.db, draftId, (rows) =>
              pool.run<ParsedImport>(importWorker, 'parseUploadedFiles', [{ files, platform }, rows], { transferList: [rows], timeoutMs: importTimeLimitMs(expandedBytes) }),
            );
          } catch (error) {
            request.log.warn({ err: error }, 'import parse failed');
            if (error instanceof PoolBusyError) throw new HttpError(503, 'IMPORT_BUSY', projectMessages.importBusy);
            // Over the thread's heap or time limit: the thread is gone, the server is fine, the file is the problem.
            const message = error instanceof WorkerLimitError ? projectMessages.importTooComplex : projectMessages.importCrashed;
            const code = error instanceof WorkerLimitError ? 'IMPORT_TOO_LARGE' : 'IMPORT_FAILED';
            // An importer that throws met something it could not read at all; the user gets one clear line.
            throw new HttpError(422, code, message, files.map((file) => ({ loc: ['files', file.name], msg: message })));
          }
          // Awaited here, inside the try: a refusal by the database must reach the error handler, not escape past `finally`;
          // the lease and the files go only once the draft is ready.
          return await finishDraft(app.db, draftId, requireImportable(parsed), 'files', fileNames, platform ?? 'yandex_direct');
        } catch (error) {
          await discardDraft(app.db, draftId);
          throw error;
        }
      } finally {
        await upload.cleanup();
      }
    });
  });
};

/** A Direct account read through the API as a job, and that job's state and live progress. */
const directImportRoutes: FastifyPluginAsync = async (app) => {
  /**
   * Starts reading a Direct account as a job (server/projects/import-jobs.ts): the token travels to the
   * worker sealed, and the preview it makes carries it, sealed, for the project to keep.
   */
  async function startDirectAccountImport(request: FastifyRequest, reply: FastifyReply, access: DirectAccess, projectId: string | null) {
    const connection = {
      encrypted_token: sealSecret(access.token, app.config.secretsKey, DIRECT_TOKEN_CONTEXT),
      client_login: access.clientLogin || null,
      sandbox: access.sandbox,
      direct_connection_id: access.directConnectionId ?? null,
    };
    const job = await startDirectImport(app.db, app.jobs, callerOf(request), connection, projectId);
    reply.status(202).header('location', pathOf(routes.importJob, { id: job.id }));
    return job;
  }

  addRoute(app, routes.previewDirect, async (request, reply) => {
    const { token, client_login, sandbox } = request.body;
    return startDirectAccountImport(request, reply, { token, clientLogin: client_login || null, sandbox: sandbox ?? false }, null);
  });

  addRoute(app, routes.previewFromConnection, async (request, reply) => {
    const { token } = await connectionAccessToken(app.db, app.config.yandexOAuth, app.config.secretsKey, callerOf(request).organizationId, request.params.id);
    const access = { token, clientLogin: request.body.client_login || null, sandbox: false, directConnectionId: request.params.id };
    return startDirectAccountImport(request, reply, access, null);
  });

  addRoute(app, routes.previewConnected, async (request, reply) => {
    const access = await storedDirectAccess(app.db, callerOf(request).organizationId, request.params.id, app.config.secretsKey, app.config.yandexOAuth);
    return startDirectAccountImport(request, reply, access, request.params.id);
  });

  addRoute(app, routes.importJob, async (request) => {
    return getImportJob(app.db, callerOf(request), request.params.id);
  });

  addRoute(app, routes.importJobEvents, async (request, reply) => {
    const caller = callerOf(request);
    const read = () => getImportJob(app.db, caller, request.params.id);
    // 404 as an ordinary JSON answer, before the stream starts.
    await read();
    await streamProgress(app.progressHub, request, reply, { channel: IMPORT_JOB_CHANNEL, id: request.params.id, read, finished: (job) => isImportJobFinished(job.status) });
  });
};

/** A previewed import (a draft): its statistics period, and its campaigns applied to a project. */
const importDraftRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.setDraftPeriod, async (request) => ({
    period: await setDraftPeriod(app.db, callerOf(request), request.params.draftId, request.body),
  }));

  addRoute(app, routes.applyImport, async (request, reply) => {
    const caller = callerOf(request);
    await importIntoProject(app.db, caller, request.params.id, request.body.draft_id, request.body.mode);
    reply.status(201);
    return projectDetail(app.db, caller.organizationId, request.params.id);
  });
};

/** A project's campaign tree and one campaign's document. */
const campaignRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.campaigns, async (request) => {
    const caller = callerOf(request);
    await findProject(app.db, caller.organizationId, request.params.id);
    return { campaigns: await campaignTree(app.db, request.params.id) };
  });

  addRoute(app, routes.campaign, async (request) => {
    const { id, campaignId } = request.params;
    const document = await campaignDocument(app.db, callerOf(request).organizationId, id, campaignId);
    return { id: campaignId, campaign: document };
  });
};
