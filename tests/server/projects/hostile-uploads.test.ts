/**
 * Issue 11, hostile uploads: a zip bomb, twenty of them in one request, a template with a 40 MB cell, a
 * file too heavy for the import thread's limits, and two imports of one user at once. Over real HTTP on
 * 127.0.0.1; the server is this process, so its RSS is sampled while the requests run. The files are
 * generated here (bench/hostile-files.ts), never committed.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipBombXlsx } from '../../../bench/hostile-files.js';
import { projectMessages } from '../../../contract/messages.js';
import { closeWorkerPools, importTimeLimitMs, workerPoolSettings } from '../../../server/lib/worker-pool.js';
import { takeImportLease } from '../../../server/projects/import-lease.js';
import { buildTemplateCsv } from '../../../server/projects/importers/template.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';

let t: TestApp;
let baseUrl: string;
let user: FixtureUser;
let bomb: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  user = await createUser(t.app);
  bomb = await zipBombXlsx();
});
afterAll(async () => {
  await closeWorkerPools();
  await t.close();
});

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function preview(token: string, files: { name: string; bytes: Uint8Array | string; type?: string }[]) {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)], { type: file.type ?? 'text/csv' }), file.name);
  const response = await fetch(`${baseUrl}/api/v1/projects/import-preview`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

/** Runs `work` while sampling this process's RSS every 20 ms; the peak over the baseline before it, in MB. */
async function rssGrowthDuring<T>(work: () => Promise<T>): Promise<{ result: T; growthMb: number; seconds: number }> {
  global.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const started = performance.now();
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growthMb: (peak - before) / 2 ** 20, seconds: (performance.now() - started) / 1000 };
  } finally {
    clearInterval(sampler);
  }
}

describe('hostile uploads', () => {
  it('refuses a 500 KB XLSX that expands to a 500 MB cell from its zip directory, with the memory staying put', async () => {
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const { result, growthMb, seconds } = await rssGrowthDuring(() => preview(user.token, [{ name: 'bomb.xlsx', bytes: bomb, type: XLSX_TYPE }]));
    expect(result.status).toBe(422);
    expect(result.body.code).toBe('IMPORT_TOO_LARGE');
    expect(result.body.error).toMatch(/^Файлы слишком большие: в распакованном виде это 50\d МБ, а за одну загрузку можно разобрать не больше 400 МБ/);
    expect(result.body.detail).toEqual([{ loc: ['files', 'bomb.xlsx'], msg: result.body.error }]);
    // Before: 11 s and +1 GB of RSS for this file. Now nothing of it is inflated.
    expect(seconds).toBeLessThan(10);
    expect(growthMb).toBeLessThan(200);
  });

  it('refuses twenty of them in one request just as fast', async () => {
    const files = Array.from({ length: 20 }, (_, index) => ({ name: `bomb-${index + 1}.xlsx`, bytes: bomb, type: XLSX_TYPE }));
    const { result, growthMb, seconds } = await rssGrowthDuring(() => preview(user.token, files));
    expect(result.status).toBe(422);
    expect(result.body.code).toBe('IMPORT_TOO_LARGE');
    expect(result.body.error).toMatch(/в распакованном виде это 10\s0\d\d МБ/);
    // Before: 227 s of parsing.
    expect(seconds).toBeLessThan(10);
    expect(growthMb).toBeLessThan(200);
  });

  it('refuses a CSV template with a 40 MB cell at its row and column', async () => {
    const [header, example] = buildTemplateCsv().trimEnd().split('\r\n');
    const cells = example.split(';');
    const phrase = header.split(';').indexOf('Фраза');
    cells[phrase] = 'купить диван '.repeat(Math.ceil((40 * 2 ** 20) / Buffer.byteLength('купить диван ')));
    const response = await preview(user.token, [{ name: 'template.csv', bytes: `${header}\r\n${cells.join(';')}\r\n` }]);
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('IMPORT_TOO_LARGE');
    const column = String.fromCharCode(65 + phrase);
    expect(response.body.detail).toEqual([{ loc: ['files', 'template.csv', 2, column], msg: `Строка 2, столбец ${column}: ячейка длиннее 32\u00a0767 символов (предел Excel). Проверьте, что файл сохранён правильно` }]);
    expect(response.body.error).toBe(response.body.detail[0].msg);
  });

  /** Runs `body` with the import pool's time limits set (fresh threads), then puts the pool back as it was. */
  async function withImportTimeLimits(limits: { importTimeoutMs: number; importTimeoutMsPerMb: number }, body: () => Promise<void>) {
    const saved = { ...workerPoolSettings };
    await closeWorkerPools();
    Object.assign(workerPoolSettings, limits);
    try {
      await body();
    } finally {
      await closeWorkerPools();
      Object.assign(workerPoolSettings, saved);
    }
  }

  it('gives a parse time by the upload\'s size: the same flat limit that stops it does not when each megabyte adds its share', async () => {
    // 1 ms for the upload itself, a minute for each (started) megabyte it expands to: a small file gets its minute.
    await withImportTimeLimits({ importTimeoutMs: 1, importTimeoutMsPerMb: 60_000 }, async () => {
      const response = await preview(user.token, [{ name: 'template.csv', bytes: buildTemplateCsv() }]);
      expect(response.status).toBe(200);
      expect(response.body.counts.keywords).toBeGreaterThan(0);
    });
    expect(importTimeLimitMs(400 * 1024 * 1024)).toBe(520_000);
  });

  it('answers a file its import thread cannot finish within its limits with a 422, and the next upload works', async () => {
    // No parse finishes within 1 ms: the thread is stopped, as one over its heap limit would be.
    await withImportTimeLimits({ importTimeoutMs: 1, importTimeoutMsPerMb: 0 }, async () => {
      const response = await preview(user.token, [{ name: 'template.csv', bytes: buildTemplateCsv() }]);
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'IMPORT_TOO_LARGE', error: projectMessages.importTooComplex });
      expect(response.body.detail).toEqual([{ loc: ['files', 'template.csv'], msg: projectMessages.importTooComplex }]);
    });
    const again = await preview(user.token, [{ name: 'template.csv', bytes: buildTemplateCsv() }]);
    expect(again.status).toBe(200);
  });

  it("refuses a user's second import while the first one runs, with 429; other users are not held up", async () => {
    // The first import of the user, held open: the lease a running parse takes.
    const release = await takeImportLease(t.app.db, user.id, 60_000);
    expect(release).not.toBeNull();
    try {
      const second = await preview(user.token, [{ name: 'template.csv', bytes: buildTemplateCsv() }]);
      expect(second.status).toBe(429);
      expect(second.body).toEqual({ error: projectMessages.importInProgress, code: 'IMPORT_IN_PROGRESS' });
      const other = await createUser(t.app, { organizationId: user.organizationId });
      expect((await preview(other.token, [{ name: 'template.csv', bytes: buildTemplateCsv() }])).status).toBe(200);
    } finally {
      await release!();
    }
    // The first one done: the user imports again.
    expect((await preview(user.token, [{ name: 'template.csv', bytes: buildTemplateCsv() }])).status).toBe(200);
  });

  it('lets one import of a user run at a time when both are sent together', async () => {
    const both = await Promise.all([0, 1].map(() => preview(user.token, [{ name: 'template.csv', bytes: buildTemplateCsv() }])));
    const statuses = both.map((response) => response.status).sort();
    // Both may also succeed one after the other when the first ends before the second arrives.
    expect([[200, 429], [200, 200]]).toContainEqual(statuses);
  });
});
