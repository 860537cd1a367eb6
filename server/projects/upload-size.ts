/**
 * The expanded size of an upload, read from disk without inflating or even reading the files: an XLSX by the
 * uncompressed sizes its zip central directory declares (yauzl reads only the directory), anything else by its
 * bytes. Light enough for the API's event loop, so a zip bomb is refused in milliseconds, before it takes a
 * thread of the import pool; the importer checks the same again (and the real sizes while inflating).
 */
import { open } from 'node:fs/promises';
import yauzl from 'yauzl';
import type { ImportProblem } from '../../contract/campaigns.js';
import { ImportBudget } from './importers/limits.js';

interface FileOnDisk {
  name: string;
  path: string;
}

/** The sizes the zip at `path` declares for its entries, summed; null when it is not a readable zip. */
function declaredZipSize(path: string): Promise<number | null> {
  return new Promise((resolve) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) return resolve(null);
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        total += entry.uncompressedSize;
        zip.readEntry();
      });
      zip.once('end', () => resolve(total));
      zip.once('error', () => resolve(null));
      zip.readEntry();
    });
  });
}

async function expandedSize(file: FileOnDisk): Promise<number> {
  const handle = await open(file.path, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    const isZip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
    return (isZip ? await declaredZipSize(file.path) : null) ?? size;
  } finally {
    await handle.close();
  }
}

/** What an upload expands to: its total bytes, and the problems when that is over the budget (null when it fits). */
export async function measureUpload(files: FileOnDisk[], budget = new ImportBudget()): Promise<{ expandedBytes: number; problems: ImportProblem[] | null }> {
  const sizes = await Promise.all(files.map(async (file) => ({ name: file.name, size: await expandedSize(file) })));
  return { expandedBytes: sizes.reduce((sum, file) => sum + file.size, 0), problems: budget.expandedSizeProblems(sizes) };
}

/** The problems of an upload that expands to more than the budget, or null when it fits. */
export async function oversizedUpload(files: FileOnDisk[], budget = new ImportBudget()): Promise<ImportProblem[] | null> {
  return (await measureUpload(files, budget)).problems;
}
