/**
 * Server-Sent Events read with `fetch`, because `EventSource` cannot send the bearer header.
 *
 * `createSseParser` follows the WHATWG event-stream rules: lines end in LF, CRLF or CR; `data:` lines
 * add up (joined by LF); a blank line dispatches; `:` lines are comments (the server's keep-alives);
 * one space after the colon is dropped. Chunks may split an event, a line or a CRLF anywhere.
 */

export interface SseEvent {
  /** `message` when the event had no `event:` line. */
  event: string;
  data: string;
  id?: string;
}

export interface SseParser {
  push(chunk: string): void;
  /** End of stream: a half-received event is dropped, as the standard says. */
  end(): void;
}

export function createSseParser(onEvent: (event: SseEvent) => void): SseParser {
  let buffer = '';
  let eventName = '';
  let dataLines: string[] = [];
  let lastId: string | undefined;
  let hasData = false;
  // A CR at the very end of a chunk may be the first half of a CRLF.
  let pendingCr = false;

  const dispatch = () => {
    if (hasData) onEvent({ event: eventName || 'message', data: dataLines.join('\n'), ...(lastId !== undefined ? { id: lastId } : {}) });
    eventName = '';
    dataLines = [];
    hasData = false;
  };

  const handleLine = (line: string) => {
    if (line === '') return dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventName = value;
    else if (field === 'data') {
      dataLines.push(value);
      hasData = true;
    } else if (field === 'id' && !value.includes('\0')) lastId = value;
    // `retry` and unknown fields: nothing to do, the caller decides how to reconnect.
  };

  return {
    push(chunk) {
      let text = chunk;
      if (pendingCr) {
        pendingCr = false;
        if (text.startsWith('\n')) text = text.slice(1);
      }
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i += 1) {
        const char = buffer[i];
        if (char !== '\n' && char !== '\r') continue;
        handleLine(buffer.slice(start, i));
        if (char === '\r') {
          if (i + 1 === buffer.length) pendingCr = true;
          else if (buffer[i + 1] === '\n') i += 1;
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    end() {
      buffer = '';
      eventName = '';
      dataLines = [];
      hasData = false;
    },
  };
}

/**
 * Reads an event stream opened in the API client's stream mode (`callApi(route, { mode: 'stream', signal
 * })`, so a 401 refreshes the session once and retries, as every call does) and calls `onEvent` for each
 * event until the server closes it or the call's signal aborts. Rejects when the answer is not a stream.
 */
export async function readEventStream(opened: Promise<Response>, onEvent: (event: SseEvent) => void): Promise<void> {
  const response = await opened;
  if (!response.body) throw new Error(`HTTP ${response.status}`);
  const parser = createSseParser(onEvent);
  const reader = response.body.getReader();
  // `stream: true` keeps a multi-byte letter split between two chunks for the next one.
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    parser.end();
    reader.releaseLock();
  }
}
