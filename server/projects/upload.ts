/**
 * Receives the files of a multipart upload by streaming each one to a private temporary folder, so a
 * 50 MB export never sits in the API process's memory; the worker thread reads them from disk.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { projectMessages } from '../../src/contract/messages.js';
import { stripControlCharacters } from '../../src/contract/text.js';
import { HttpError } from '../lib/errors.js';
import type { UploadedFile } from './import-worker.js';

export interface ReceivedUpload {
  files: UploadedFile[];
  /** Plain form fields sent beside the files (e.g. `platform`). */
  fields: Record<string, string>;
  /** Removes the temporary folder; call it in `finally`. */
  cleanup: () => Promise<void>;
}

/** Upload limit for campaign files (issue: 50 MB, streamed). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

const withFile = (message: string, file: string) => message.replace('{file}', file);

export async function receiveUploads(request: FastifyRequest): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw new HttpError(415, 'NOT_MULTIPART', projectMessages.notMultipart);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'reklama-upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      // A NUL in the name would be refused by PostgreSQL where the name is stored with the import.
      const name = stripControlCharacters(part.filename ?? '') || `file-${files.length + 1}`;
      // The user's file name is only displayed; on disk the file gets a name of ours.
      const target = path.join(dir, `upload-${files.length}`);
      try {
        await pipeline(part.file, createWriteStream(target));
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'FILE_TOO_LARGE', withFile(projectMessages.fileTooLarge, name));
        throw error;
      }
      if (part.file.truncated) throw new HttpError(413, 'FILE_TOO_LARGE', withFile(projectMessages.fileTooLarge, name));
      if ((await stat(target)).size === 0) {
        throw new HttpError(422, 'VALIDATION_ERROR', withFile(projectMessages.emptyFile, name), [{ loc: ['files', name], msg: withFile(projectMessages.emptyFile, name) }]);
      }
      files.push({ name, path: target });
    }
  } catch (error) {
    await cleanup();
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT') throw new HttpError(413, 'TOO_MANY_FILES', projectMessages.tooManyFiles);
    throw error;
  }
  if (files.length === 0) {
    await cleanup();
    throw new HttpError(422, 'VALIDATION_ERROR', projectMessages.noFiles, [{ loc: ['files'], msg: projectMessages.noFiles }]);
  }
  return { files, fields, cleanup };
}
