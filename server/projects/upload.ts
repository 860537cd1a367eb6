/**
 * Receives the files of a multipart upload by streaming each one to a private temporary folder, so a
 * 50 MB export never sits in the API process's memory; the worker thread reads them from disk.
 *
 * The limits hold before the bytes land, not after: the route takes the user's import lease before the
 * first byte is read (a second upload of the user is refused without writing anything), an upload that
 * declares more than its limit in `Content-Length` is refused before reading, and every chunk is counted
 * on its way to disk, so the upload stops at the first byte past the limit. The bytes of every upload
 * on this server's disk are held in one `UploadSpace`: a declared length is held up front, an undeclared
 * one as it arrives, and an upload that does not fit is refused (503) instead of filling the disk.
 * Whatever way an upload ends before the parse (a client that aborts, a limit, a malformed part), its
 * folder is removed and its bytes given back.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { projectMessages } from '../../contract/messages.js';
import { stripControlCharacters } from '../../contract/text.js';
import { HttpError } from '../lib/errors.js';
import type { UploadedFile } from './import-worker.js';
import { importLimits, megabytes } from './importers/limits.js';

export interface ReceivedUpload {
  files: UploadedFile[];
  /** Plain form fields sent beside the files (e.g. `platform`). */
  fields: Record<string, string>;
  /** Ends the upload: releases what it holds (the user's lease), removes the folder, gives its bytes back; call it in `finally`. */
  cleanup: () => Promise<void>;
}

/** Upload limit for campaign files (issue: 50 MB, streamed). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/**
 * All files of one upload, as sent: the same 400 MB as the expanded-size budget (importLimits), since
 * no file is smaller unpacked than on the wire. One upload per user at a time (the lease), so this is
 * also what one user can have on the server's disk.
 */
const MAX_UPLOAD_TOTAL_BYTES = importLimits.maxExpandedBytes;
/** The multipart framing around the files (boundaries, part headers, the `platform` field) in `Content-Length`. */
const FRAMING_ALLOWANCE_BYTES = 1024 * 1024;

/** The bytes of the uploads on this server's disk (received, not yet removed), held against one capacity. */
export class UploadSpace {
  #held = 0;

  constructor(readonly capacityBytes: number) {}

  get heldBytes(): number {
    return this.#held;
  }

  /** Holds `bytes` more; false (nothing held) when they do not fit. */
  hold(bytes: number): boolean {
    if (this.#held + bytes > this.capacityBytes) return false;
    this.#held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#held -= bytes;
  }
}

export interface UploadOptions {
  space: UploadSpace;
  /** The folder the upload's own temporary folder is made in. */
  tempDir: string;
  /** Releases what the upload holds beside its files (the user's import lease): first thing at the end, whichever way it ends. */
  release: () => Promise<void>;
}

/**
 * 400 MB at 8 Mbit/s takes about 7 minutes. A client slower than that (or one that stops sending) holds its
 * bytes of the upload space and the user's import lease only this long.
 */
export const UPLOAD_TIME_LIMIT_MS = 10 * 60_000;

const FOLDER_PREFIX = 'reklama-upload-';

/**
 * Removes the upload folders in `tempDir` untouched for longer than `olderThanMs`: those of a server process
 * that died (kill -9, the OOM killer) before its clean-up ran. Younger ones may be another process's live uploads.
 */
export async function removeAbandonedUploads(tempDir: string, olderThanMs: number): Promise<string[]> {
  const names = (await readdir(tempDir).catch(() => [] as string[])).filter((name) => name.startsWith(FOLDER_PREFIX));
  const removed: string[] = [];
  for (const name of names) {
    const folder = path.join(tempDir, name);
    const info = await stat(folder).catch(() => null);
    if (!info?.isDirectory() || Date.now() - info.mtimeMs <= olderThanMs) continue;
    await rm(folder, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

const withFile = (message: string, file: string) => message.replace('{file}', file);

const uploadTooLarge = () => new HttpError(413, 'UPLOAD_TOO_LARGE', projectMessages.uploadTooLarge.replace('{max}', megabytes(MAX_UPLOAD_TOTAL_BYTES)));
const serverFull = () => new HttpError(503, 'UPLOADS_BUSY', projectMessages.uploadsBusy);
const malformed = () => new HttpError(400, 'MALFORMED_UPLOAD', projectMessages.malformedUpload);

/** What the multipart plugin (or busboy under it) threw, as the client's error; null for a failure of ours (the disk). */
function clientErrorOf(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') return new HttpError(413, 'TOO_MANY_FILES', projectMessages.tooManyFiles);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new HttpError(413, 'TOO_MANY_FIELDS', projectMessages.tooManyFields);
  // A file system error (ENOSPC, EACCES…) is the server's: a 500, logged.
  if ((error as { syscall?: string }).syscall) return null;
  // Everything else comes from reading the request: a part without its end boundary, a missing boundary,
  // truncated part headers, a request closed halfway (FST_MP_PREMATURE_CLOSE, busboy's own errors).
  return malformed();
}

/**
 * Streams the files of a multipart request (the route has checked it is one) to a new temporary folder.
 * When it throws, everything is already given back (`options.release` too, then the files).
 */
export async function receiveUploads(request: FastifyRequest, options: UploadOptions): Promise<ReceivedUpload> {
  const { space } = options;
  let held = 0;
  let dir: string | null = null;
  const cleanup = async () => {
    await options.release().catch((error: unknown) => request.log.warn({ err: error }, 'upload release failed'));
    if (dir) await rm(dir, { recursive: true, force: true });
    space.release(held);
    held = 0;
  };
  const declared = Number(request.headers['content-length']);
  const hasDeclaredLength = Number.isSafeInteger(declared) && declared >= 0;
  const refuseAtOnce = hasDeclaredLength && declared > MAX_UPLOAD_TOTAL_BYTES + FRAMING_ALLOWANCE_BYTES ? uploadTooLarge() : null;
  // A declared length is held before reading (so a server without room refuses at once); the rest as it arrives.
  const upFront = hasDeclaredLength ? Math.min(declared, MAX_UPLOAD_TOTAL_BYTES) : 0;
  if (refuseAtOnce || !space.hold(upFront)) {
    await cleanup();
    throw refuseAtOnce ?? serverFull();
  }
  held = upFront;
  let received = 0;
  /** Counts the bytes of every file on their way to disk, stopping the upload at the first one over a limit. */
  const counter = () =>
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > MAX_UPLOAD_TOTAL_BYTES) return done(uploadTooLarge());
        if (received > held) {
          if (!space.hold(received - held)) return done(serverFull());
          held = received;
        }
        done(null, chunk);
      },
    });
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const readParts = async (into: string) => {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      // A NUL in the name would be refused by PostgreSQL where the name is stored with the import.
      const name = stripControlCharacters(part.filename ?? '') || `file-${files.length + 1}`;
      // The user's file name is only displayed; on disk the file gets a name of ours.
      const target = path.join(into, `upload-${files.length}`);
      const before = received;
      try {
        await pipeline(part.file, counter(), createWriteStream(target));
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'FILE_TOO_LARGE', withFile(projectMessages.fileTooLarge, name));
        throw error;
      }
      if (part.file.truncated) throw new HttpError(413, 'FILE_TOO_LARGE', withFile(projectMessages.fileTooLarge, name));
      if (received === before) {
        throw new HttpError(422, 'VALIDATION_ERROR', withFile(projectMessages.emptyFile, name), [{ loc: ['files', name], msg: withFile(projectMessages.emptyFile, name) }]);
      }
      files.push({ name, path: target });
    }
  };
  try {
    dir = await mkdtemp(path.join(options.tempDir, FOLDER_PREFIX));
    // A request whose client went away before the parts are read would never end the iteration.
    if (request.raw.destroyed) throw malformed();
    await withTimeLimit(readParts(dir), UPLOAD_TIME_LIMIT_MS, () => {
      // Stops the reading: the multipart plugin ends the iteration with its premature-close error.
      request.raw.destroy();
      return new HttpError(408, 'UPLOAD_TIMEOUT', projectMessages.uploadTimedOut);
    });
  } catch (error) {
    await cleanup();
    const clientError = clientErrorOf(error);
    if (clientError) throw clientError;
    throw error;
  }
  if (files.length === 0) {
    await cleanup();
    throw new HttpError(422, 'VALIDATION_ERROR', projectMessages.noFiles, [{ loc: ['files'], msg: projectMessages.noFiles }]);
  }
  return { files, fields, cleanup };
}

/** `work`, or the error `onTimeout` makes when it has not settled within `ms` (the work's own later failure is then ignored). */
async function withTimeLimit<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
