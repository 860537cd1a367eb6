/** Reading a run's progress stream (server/lib/progress-stream.ts) over real HTTP, as the PWA does. */
import type { FastifyInstance } from 'fastify';

export interface StreamedEvent<T> {
  event: string;
  data: T;
}

/** The app listening on 127.0.0.1 (once per app), as `http://127.0.0.1:<port>`. */
const addresses = new WeakMap<FastifyInstance, Promise<string>>();
export function addressOf(app: FastifyInstance): Promise<string> {
  let address = addresses.get(app);
  if (!address) addresses.set(app, (address = app.listen({ port: 0, host: '127.0.0.1' })));
  return address;
}

/**
 * Opens `path` on the listening app and reads the stream until the server ends it; `onEvent` sees each
 * event as it arrives (a test can move the run on from there). Answers the status, the content type and
 * every event, `data` parsed.
 */
export async function readProgressStream<T>(app: FastifyInstance, path: string, token: string, onEvent?: (event: StreamedEvent<T>) => void) {
  const response = await fetch(`${await addressOf(app)}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const events: StreamedEvent<T>[] = [];
  if (response.status !== 200 || !response.body) return { status: response.status, contentType: response.headers.get('content-type'), events, body: await response.text() };
  await forEachServerEvent(response.body, (event, data) => {
    const parsed = { event, data: data as T };
    events.push(parsed);
    onEvent?.(parsed);
  });
  return { status: response.status, contentType: response.headers.get('content-type'), events, body: '' };
}

/** Reads the Server-Sent Events of `body` until the server ends it, handing each to `onEvent` (awaited), its data parsed. */
export async function forEachServerEvent(body: ReadableStream<Uint8Array>, onEvent: (event: string, data: unknown) => void | Promise<void>): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (!event || !data) continue;
      await onEvent(event, JSON.parse(data));
    }
  }
}
