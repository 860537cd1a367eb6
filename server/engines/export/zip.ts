/**
 * A ZIP written as a stream: each entry's content is streamed into it as it is made, nothing is held whole.
 * Entries are stored, not compressed again: what goes in (XLSX files) is compressed already. Names that
 * are not ASCII are marked UTF-8 (fflate does it), which Windows Explorer, macOS and unzip read.
 */
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';

export interface ZipEntry {
  name: string;
  /** Streams the entry's content into `output` (ending it or not). */
  write: (output: Writable) => Promise<void>;
}

/** Writes a ZIP of `entries` into `output` (which it does not end), waiting whenever `output` asks to. */
export async function writeZip(entries: Iterable<ZipEntry> | AsyncIterable<ZipEntry>, output: Writable): Promise<void> {
  let failure: Error | null = null;
  let drained: Promise<void> | null = null;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else if (!output.write(chunk) && !drained) drained = once(output, 'drain').then(() => void (drained = null));
  });
  // The entry's writer waits for the ZIP's reader: a piece goes on only once the output took the last one.
  const backPressure = () => (failure ? Promise.reject(failure) : (drained ?? Promise.resolve()));
  for await (const entry of entries) {
    const file = new ZipPassThrough(entry.name);
    zip.add(file);
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        file.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
        backPressure().then(() => done(), done);
      },
      final(done) {
        file.push(new Uint8Array(0), true);
        backPressure().then(() => done(), done);
      },
    });
    await entry.write(sink);
    if (!sink.writableEnded) sink.end();
    await finished(sink);
  }
  zip.end();
  await backPressure();
}
