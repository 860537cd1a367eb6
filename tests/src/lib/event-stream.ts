/** Event streams of the runs' live channel (src/lib/live-run.ts), served by msw. */
import { http, HttpResponse } from 'msw';

/** An event stream the test writes into, chunk by chunk. */
export function controlledStream() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(value) {
      controller = value;
    },
  });
  return {
    response: () => new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
  };
}

/** One `progress`/`done` event carrying `data` (the body of the run's GET). */
export const sseEvent = (name: 'progress' | 'done', data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** The stream at `path` cannot be reached (a proxy that drops it, a network error): the screen polls instead. */
export const streamUnreachable = (path: string) => http.get(path, () => HttpResponse.error());
