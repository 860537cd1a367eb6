import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

/**
 * Writes `name.br` and `name.gz` beside every compressible file of a built web folder, at the highest
 * settings (brotli 11, gzip 9): they are made once per build, and `@fastify/static` (`preCompressed`)
 * sends them as they are, so clients get the smallest files with no compression work per request.
 *
 * Written by hand rather than with a Vite plugin from npm: it is node's zlib and a directory walk, it
 * also runs on files other plugins write after the bundle (the service worker), and it keeps the build
 * free of a plugin that has to follow Vite's major versions.
 */

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images and PDFs are compressed already, source maps are not served to users. */
export const COMPRESSIBLE_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.webmanifest', '.txt', '.xml', '.ico']);
/** Below this a compressed copy saves less than the response headers weigh. */
export const PRECOMPRESS_MIN_BYTES = 1024;

export interface PrecompressReport {
  files: number;
  bytes: number;
  brotliBytes: number;
  gzipBytes: number;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

export function compressBrotli(content: Buffer): Promise<Buffer> {
  return brotli(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
}

export function compressGzip(content: Buffer): Promise<Buffer> {
  return gzipAsync(content, { level: constants.Z_BEST_COMPRESSION });
}

/** Compresses every eligible file under `dir`; a copy that would not be smaller is not written. */
export async function precompressDirectory(dir: string): Promise<PrecompressReport> {
  const report: PrecompressReport = { files: 0, bytes: 0, brotliBytes: 0, gzipBytes: 0 };
  const jobs: Promise<void>[] = [];
  for await (const file of walk(dir)) {
    if (!COMPRESSIBLE_EXTENSIONS.has(path.extname(file).toLowerCase())) continue;
    if ((await stat(file)).size < PRECOMPRESS_MIN_BYTES) continue;
    jobs.push(
      (async () => {
        const content = await readFile(file);
        const [br, gz] = await Promise.all([compressBrotli(content), compressGzip(content)]);
        report.files++;
        report.bytes += content.length;
        report.brotliBytes += Math.min(br.length, content.length);
        report.gzipBytes += Math.min(gz.length, content.length);
        if (br.length < content.length) await writeFile(`${file}.br`, br);
        if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
      })(),
    );
  }
  await Promise.all(jobs);
  return report;
}
