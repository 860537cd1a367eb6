/**
 * Issue 27: upload limits hold before the bytes land. Over real HTTP on 127.0.0.1, with the uploads'
 * temporary folder of this test only (UPLOAD_TEMP_DIR), watched for the folders the uploads make:
 * - a user's uploads sent while one of theirs is still arriving are refused (429) without a folder or a byte on disk;
 * - an upload larger than the server has room for (UPLOADS_IN_FLIGHT_MB) is refused, at once when its length is
 *   declared, at the first byte past the room when it is not, and its folder removed;
 * - an upload over 400 MB by its declared length is refused before its body is read;
 * - an aborted upload leaves no files, and its user can upload again at once;
 * - malformed multipart (no end boundary, no boundary, truncated part headers) is a 400 in Russian, not a 500;
 * - the folders of a server process that died mid-upload are removed when the next one starts.
 */
import { once } from 'node:events';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectMessages } from '../../../contract/messages.js';
import { closeWorkerPools } from '../../../server/lib/worker-pool.js';
import { buildTemplateCsv } from '../../../server/projects/importers/template.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser } from '../helpers/fixtures.js';

const MB = 1024 * 1024;
/** The room for uploads on disk in this test's server. */
const ROOM_BYTES = 8 * MB;
const BOUNDARY = 'reklama-upload-limits';

let t: TestApp;
let baseUrl: URL;
let tempDir: string;
/** Every `reklama-upload-*` folder made in the temporary folder while a test ran. */
let foldersMade: Set<string>;
let watcher: FSWatcher;

beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-upload-limits-'));
  // What a server process killed mid-upload leaves behind (a day old), and a live upload of another process.
  for (const name of ['reklama-upload-abandoned', 'reklama-upload-live']) {
    await mkdir(path.join(tempDir, name));
    await writeFile(path.join(tempDir, name, 'upload-0'), 'Кампания;Группа\r\n');
  }
  const dayAgo = new Date(Date.now() - 24 * 3600_000);
  await utimes(path.join(tempDir, 'reklama-upload-abandoned'), dayAgo, dayAgo);
  t = await createTestApp({ config: { uploads: { tempDir, maxBytesInFlight: ROOM_BYTES } } });
  baseUrl = new URL(await t.app.listen({ host: '127.0.0.1', port: 0 }));
  foldersMade = new Set();
  watcher = watch(tempDir, (_event, name) => {
    if (name?.startsWith('reklama-upload-') && existsSync(path.join(tempDir, name))) foldersMade.add(name);
  });
});
afterAll(async () => {
  watcher?.close();
  await closeWorkerPools();
  await t?.close();
  await rm(tempDir, { recursive: true, force: true });
});

const fileHead = (name: string) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`);
const fileTail = () => Buffer.from('\r\n');
const formEnd = () => Buffer.from(`--${BOUNDARY}--\r\n`);
/** Bytes that are a CSV cell, so the parts stay well-formed whatever their size. */
const filler = (bytes: number) => Buffer.alloc(bytes, 'x');

interface Answer {
  status: number;
  body: { error: string; code: string; detail?: unknown };
}

const readAnswer = async (response: IncomingMessage): Promise<Answer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return { status: response.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
};

/** A POST to the import preview whose body the test writes itself (chunked unless `headers` declare a length). */
function openUpload(token: string, headers: Record<string, string> = {}): { request: ClientRequest; answer: Promise<Answer> } {
  const request = httpRequest({
    host: baseUrl.hostname,
    port: baseUrl.port,
    path: '/api/v1/projects/import-preview',
    method: 'POST',
    // A connection of its own, gone with the request (a refused upload's body is left unsent).
    agent: false,
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
  });
  // The server may answer and close while the body is still being written.
  request.on('error', () => undefined);
  const answer = (once(request, 'response') as Promise<[IncomingMessage]>).then(([response]) => readAnswer(response));
  // An upload the test aborts has no answer.
  answer.catch(() => undefined);
  return { request, answer };
}

/** A whole upload sent at once, with its length declared (as a browser's FormData is). */
async function sendUpload(token: string, body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`): Promise<Answer> {
  const { request, answer } = openUpload(token, { 'content-type': contentType, 'content-length': String(body.length) });
  request.end(body);
  return answer;
}

const csvUpload = (files: { name: string; content: Buffer }[]) => Buffer.concat([...files.flatMap((file) => [fileHead(file.name), file.content, fileTail()]), formEnd()]);

/** Resolves once `condition` holds, re-checking on every change in the temporary folder (no timers). */
async function whenFolder(condition: () => Promise<boolean>): Promise<void> {
  const changes = watch(tempDir, { recursive: true });
  try {
    while (!(await condition())) await once(changes, 'change');
  } finally {
    changes.close();
  }
}
const uploadFolders = async () => (await readdir(tempDir)).filter((name) => name.startsWith('reklama-upload-'));

describe('upload limits before the bytes land', () => {
  it('removes the upload folders a dead server process left when it starts, and leaves younger ones alone', async () => {
    expect(await uploadFolders()).toEqual(['reklama-upload-live']);
    await rm(path.join(tempDir, 'reklama-upload-live'), { recursive: true });
  });

  it("refuses a user's uploads sent while one of theirs is arriving, without writing them: 429, no folder, no bytes", async () => {
    const user = await createUser(t.app);
    foldersMade.clear();
    const template = Buffer.from(buildTemplateCsv(), 'utf8');
    const first = openUpload(user.token);
    first.request.write(Buffer.concat([fileHead('template.csv'), template.subarray(0, 100)]));
    // The first upload is being received: its folder exists (the user's lease is held from before that).
    await whenFolder(async () => (await uploadFolders()).length === 1);
    expect(foldersMade.size).toBe(1);

    // Three more of the same user, 3 × 1 MB each, all at once (the probe: 5 × 40 MB, four at once).
    const files = [1, 2, 3].map((index) => ({ name: `part-${index}.csv`, content: filler(MB) }));
    const others = await Promise.all([1, 2, 3].map(() => sendUpload(user.token, csvUpload(files))));
    for (const other of others) expect(other).toEqual({ status: 429, body: { error: projectMessages.importInProgress, code: 'IMPORT_IN_PROGRESS' } });
    // Before: each of them streamed its 3 MB into a folder of its own, then got the 429.
    expect(foldersMade.size).toBe(1);

    first.request.end(Buffer.concat([template.subarray(100), fileTail(), formEnd()]));
    expect((await first.answer).status).toBe(200);
    expect(await uploadFolders()).toEqual([]);
  });

  it('refuses an upload larger than the room for uploads at once by its declared length, and an undeclared one at the first byte past it', async () => {
    const user = await createUser(t.app);
    foldersMade.clear();
    const declared = openUpload(user.token, { 'content-length': String(ROOM_BYTES + MB) });
    declared.request.write(fileHead('big.csv'));
    const refused = await declared.answer;
    declared.request.destroy();
    expect(refused).toEqual({ status: 503, body: { error: projectMessages.uploadsBusy, code: 'UPLOADS_BUSY' } });
    expect(foldersMade.size).toBe(0);

    // Chunked (no length): read until it no longer fits, then refused, and what it wrote removed.
    const undeclared = openUpload(user.token);
    undeclared.request.write(fileHead('big.csv'));
    for (let sent = 0; sent <= ROOM_BYTES; sent += MB) {
      if (!undeclared.request.write(filler(MB))) await Promise.race([once(undeclared.request, 'drain'), undeclared.answer]);
    }
    const stopped = await undeclared.answer;
    undeclared.request.destroy();
    expect(stopped).toEqual({ status: 503, body: { error: projectMessages.uploadsBusy, code: 'UPLOADS_BUSY' } });
    expect(foldersMade.size).toBe(1);
    expect(await uploadFolders()).toEqual([]);

    // Its bytes were given back: the next upload of the user fits and is read.
    const next = await sendUpload(user.token, csvUpload([{ name: 'template.csv', content: Buffer.from(buildTemplateCsv(), 'utf8') }]));
    expect(next.status).toBe(200);
  });

  it('refuses an upload that declares more than 400 MB before reading its body', async () => {
    const user = await createUser(t.app);
    foldersMade.clear();
    const upload = openUpload(user.token, { 'content-length': String(500 * MB) });
    upload.request.write(fileHead('huge.csv'));
    const answer = await upload.answer;
    upload.request.destroy();
    expect(answer).toEqual({ status: 413, body: { error: 'Файлы слишком большие: за одну загрузку можно передать не больше 400 МБ. Загрузите файлы по частям или выгрузите кампании в CSV', code: 'UPLOAD_TOO_LARGE' } });
    expect(foldersMade.size).toBe(0);
  });

  it('leaves no files when the client aborts halfway, and the user uploads again at once', async () => {
    const user = await createUser(t.app);
    const upload = openUpload(user.token);
    upload.request.write(Buffer.concat([fileHead('big.csv'), filler(2 * MB)]));
    // Bytes are on disk: the folder has the file.
    await whenFolder(async () => {
      const [folder] = await uploadFolders();
      return folder !== undefined && (await readdir(path.join(tempDir, folder))).length > 0;
    });
    upload.request.destroy();
    await whenFolder(async () => (await uploadFolders()).length === 0);
    const again = await sendUpload(user.token, csvUpload([{ name: 'template.csv', content: Buffer.from(buildTemplateCsv(), 'utf8') }]));
    expect(again.status).toBe(200);
  });
});

describe('malformed multipart', () => {
  const expectMalformed = (answer: Answer) => expect(answer).toEqual({ status: 400, body: { error: projectMessages.malformedUpload, code: 'MALFORMED_UPLOAD' } });

  it('answers a part without its end boundary, a missing boundary and truncated part headers with 400 in Russian, leaving no files', async () => {
    const user = await createUser(t.app);
    // Before: 500 «Внутренняя ошибка сервера» for each.
    expectMalformed(await sendUpload(user.token, Buffer.concat([fileHead('a.csv'), Buffer.from('Кампания;Группа\r\n')])));
    expectMalformed(await sendUpload(user.token, csvUpload([{ name: 'a.csv', content: Buffer.from('Кампания;Группа\r\n') }]), 'multipart/form-data'));
    expectMalformed(await sendUpload(user.token, Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-da`)));
    expect(await uploadFolders()).toEqual([]);
    // Nothing held: the user's next upload is read.
    expect((await sendUpload(user.token, csvUpload([{ name: 'template.csv', content: Buffer.from(buildTemplateCsv(), 'utf8') }]))).status).toBe(200);
  });
});
