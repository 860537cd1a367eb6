import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { answerRequests, PortStreamSender, receivePortStream, requestsOver } from '../../../server/lib/port-stream.js';

interface Item {
  n: number;
}

/** A promise with its resolve and reject outside, to hold a handler until the test lets it finish. */
function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const passed = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { passed, open, fail };
}

/** Lets the messages in flight on the ports arrive (they are delivered as macrotasks). */
const turns = async (count = 5) => {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

const open: MessagePort[] = [];
function channel() {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  return { thread: port1, main: port2 };
}
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

describe('port stream', () => {
  it('keeps at most inFlight messages unacknowledged and posts the next once one is', async () => {
    const { thread, main } = channel();
    const gates = Array.from({ length: 6 }, gate);
    const started: number[] = [];
    let running = 0;
    let mostRunning = 0;
    receivePortStream<Item>(main, {
      handle: async ({ n }) => {
        started.push(n);
        mostRunning = Math.max(mostRunning, ++running);
        await gates[n]!.passed;
        running--;
      },
    });
    const sender = new PortStreamSender<Item>(thread, { inFlight: 2 });
    let sent = 0;
    const sending = (async () => {
      for (let n = 0; n < 6; n++) {
        await sender.send({ n });
        sent++;
      }
    })();
    await turns();
    expect(sent).toBe(2);
    expect(started).toEqual([0, 1]);
    // The second written first: acknowledgements may come in any order, each frees one place.
    gates[1]!.open();
    await turns();
    expect(sent).toBe(3);
    expect(started).toEqual([0, 1, 2]);
    for (const { open: release } of gates) release();
    await sending;
    await sender.drain();
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(mostRunning).toBe(2);
  });

  it('starts the handlers in the order sent and passes the messages (and moved buffers) through', async () => {
    const { thread, main } = channel();
    const received: number[] = [];
    const bytes: number[] = [];
    receivePortStream<Item & { bytes: Uint8Array }>(main, {
      handle: async (message) => {
        received.push(message.n);
        bytes.push(message.bytes[0]!);
        // Later messages finish first: the order is that of the starts, not of the ends.
        await new Promise<void>((resolve) => setTimeout(resolve, 10 - message.n));
      },
    });
    const sender = new PortStreamSender<Item & { bytes: Uint8Array }>(thread, { inFlight: 3 });
    for (let n = 0; n < 10; n++) {
      const buffer = new Uint8Array([n * 10]);
      await sender.send({ n, bytes: buffer }, [buffer.buffer]);
      // Moved, not copied: the sender's view is detached.
      expect(buffer.byteLength).toBe(0);
    }
    await sender.drain();
    expect(received).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(bytes).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
  });

  it('passes notices to their own handler, unacknowledged and outside the bound', async () => {
    const { thread, main } = channel();
    const notices: string[] = [];
    const items = gate();
    receivePortStream<Item, { note: string }>(main, { handle: () => items.passed, notice: ({ note }) => notices.push(note) });
    const sender = new PortStreamSender<Item, { note: string }>(thread, { inFlight: 1 });
    await sender.send({ n: 0 });
    for (let i = 0; i < 5; i++) sender.notify({ note: `${i}` });
    await turns();
    expect(notices).toEqual(['0', '1', '2', '3', '4']);
    items.open();
    await sender.drain();
  });

  it('rejects the next send and drain with the receiver’s failure, and refuses what comes after it', async () => {
    const { thread, main } = channel();
    const handled: number[] = [];
    const failures: unknown[] = [];
    const receiver = receivePortStream<Item>(main, {
      handle: async ({ n }) => {
        handled.push(n);
        if (n === 1) throw new Error('disk full');
      },
      onFailure: (error) => failures.push(error),
    });
    const sender = new PortStreamSender<Item>(thread, { inFlight: 3, failureError: (message) => new Error(`not stored: ${message}`) });
    await sender.send({ n: 0 });
    await sender.send({ n: 1 });
    await turns();
    await expect(sender.send({ n: 2 })).rejects.toThrow('not stored: disk full');
    await expect(sender.drain()).rejects.toThrow('not stored: disk full');
    await expect(receiver.finished()).rejects.toThrow('disk full');
    expect((receiver.failure as Error).message).toBe('disk full');
    expect(failures).toHaveLength(1);
    expect(handled).toEqual([0, 1]);
  });

  it('refuses messages that arrive after a failure without handling them', async () => {
    const { thread, main } = channel();
    const handled: number[] = [];
    const first = gate();
    receivePortStream<Item>(main, {
      handle: async ({ n }) => {
        handled.push(n);
        if (n === 0) await first.passed;
      },
    });
    const sender = new PortStreamSender<Item>(thread, { inFlight: 3 });
    await sender.send({ n: 0 });
    await turns();
    first.fail(new Error('lost the connection'));
    await turns();
    // The failure is known: nothing more goes out.
    await expect(sender.send({ n: 1 })).rejects.toThrow('lost the connection');
    expect(handled).toEqual([0]);
  });

  it('a failure while the sender waits for room rejects the waiting send at once', async () => {
    const { thread, main } = channel();
    const held = gate();
    receivePortStream<Item>(main, { handle: () => held.passed });
    const sender = new PortStreamSender<Item>(thread, { inFlight: 1 });
    await sender.send({ n: 0 });
    const waiting = sender.send({ n: 1 });
    await turns();
    held.fail(new Error('the write failed'));
    await expect(waiting).rejects.toThrow('the write failed');
  });

  it('drain waits for the last acknowledgement, and the receiver’s finished() for the last handler', async () => {
    const { thread, main } = channel();
    const last = gate();
    const receiver = receivePortStream<Item>(main, { handle: ({ n }) => (n === 2 ? last.passed : undefined) });
    const sender = new PortStreamSender<Item>(thread, { inFlight: 4 });
    for (let n = 0; n < 3; n++) await sender.send({ n });
    let drained = false;
    const draining = sender.drain().then(() => (drained = true));
    let finished = false;
    await turns();
    const finishing = receiver.finished().then(() => (finished = true));
    await turns();
    expect([drained, finished]).toEqual([false, false]);
    last.open();
    await draining;
    await finishing;
    expect([drained, finished]).toEqual([true, true]);
  });

  it('answers requests by id on the same port as the stream, failures as rejections', async () => {
    const { thread, main } = channel();
    const pieces: string[] = [];
    receivePortStream<{ piece: string }>(main, { handle: ({ piece }) => void pieces.push(piece) });
    answerRequests<number, string>(main, async (n) => {
      if (n < 0) throw new Error('no such row');
      // Answers in another order than asked.
      await new Promise<void>((resolve) => setTimeout(resolve, 10 - n));
      return `row ${n}`;
    });
    const request = requestsOver<number, string>(thread);
    const sender = new PortStreamSender<{ piece: string }>(thread, { inFlight: 2 });
    const answers = Promise.all([request(1), request(2), request(3)]);
    await sender.send({ piece: 'a' });
    await sender.send({ piece: 'b' });
    expect(await answers).toEqual(['row 1', 'row 2', 'row 3']);
    await expect(request(-1)).rejects.toThrow('no such row');
    await sender.drain();
    expect(pieces).toEqual(['a', 'b']);
  });
});
