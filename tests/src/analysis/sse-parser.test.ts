import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from '@/lib/sse';

function parseChunks(chunks: string[]): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

const stream = 'event: progress\ndata: {"analysis":{"id":"a","progress":10}}\n\n: ping\n\nevent: done\ndata: {"analysis":{"id":"a","progress":100}}\n\n';

describe('SSE parser', () => {
  it('reads named events and skips comment lines', () => {
    expect(parseChunks([stream])).toEqual([
      { event: 'progress', data: '{"analysis":{"id":"a","progress":10}}' },
      { event: 'done', data: '{"analysis":{"id":"a","progress":100}}' },
    ]);
  });

  it('gives the same events however the stream is cut into chunks, even inside a field name or value', () => {
    const whole = parseChunks([stream]);
    for (let cut = 1; cut < stream.length; cut += 1) {
      expect(parseChunks([stream.slice(0, cut), stream.slice(cut)])).toEqual(whole);
    }
    // One character at a time.
    expect(parseChunks(stream.split(''))).toEqual(whole);
  });

  it('accepts CRLF and CR line ends, including a CRLF split between two chunks', () => {
    const crlf = stream.replace(/\n/g, '\r\n');
    expect(parseChunks([crlf])).toEqual(parseChunks([stream]));
    const at = crlf.indexOf('\r\n') + 1;
    expect(parseChunks([crlf.slice(0, at), crlf.slice(at)])).toEqual(parseChunks([stream]));
    expect(parseChunks([stream.replace(/\n/g, '\r')])).toEqual(parseChunks([stream]));
  });

  it('joins multi-line data, keeps the last id, defaults the event name to message', () => {
    expect(parseChunks(['id: 7\ndata: first\ndata:second\n\n'])).toEqual([{ event: 'message', data: 'first\nsecond', id: '7' }]);
  });

  it('drops an event the stream ended in the middle of', () => {
    expect(parseChunks(['event: progress\ndata: {"half":'])).toEqual([]);
  });
});
