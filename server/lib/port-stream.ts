/**
 * One mechanism for the back-pressured streams between a worker thread and the main thread over a
 * `MessagePort`: the audit's row batches (analysis/run-audit.ts → the benches and tests that read them; the
 * job's thread saves its rows itself, analysis/result-saving.ts), the export's file
 * pieces and row reads (analysis/export-file.ts ↔ the export route) and the import's draft rows
 * (projects/draft-rows.ts).
 *
 *   sender: send(message) … drain()   ──message──▶   receiver: handle(message) → ack (ok or failure)
 *                                     ◀──ack─────
 *
 * The sender keeps at most `inFlight` messages unacknowledged: `send` waits for an acknowledgement before
 * posting one more, so the receiver never holds more than that many, however fast the sender produces.
 * The receiver starts its handler for each message as it arrives, in the order sent (the handlers may
 * overlap, at most `inFlight` of them, which lets a receiver write on several connections at once), and
 * acknowledges each once its handler settled. A failed handler is acknowledged as a failure: the sender's
 * next `send` or `drain` rejects with it, and the receiver refuses (acknowledges as failed, unhandled)
 * whatever still comes. Messages posted with `notify` are not counted and not acknowledged (progress).
 *
 * On the wire a counted message is the caller's own object with `acknowledge: true` added, a notice is the
 * object as it is, an acknowledgement is `{ type: 'ack' }` (with `failure`, the handler's error message, when
 * it failed); requests and answers (`requestsOver`, `answerRequests`) have types of their own, so all of
 * them may share one port.
 */
import type { MessagePort, Transferable } from 'node:worker_threads';

/** The receiver's acknowledgement of one counted message. */
interface StreamAck {
  type: 'ack';
  /** The handler's error message, when it failed. */
  failure?: string;
}
type Counted<M> = M & { acknowledge: true };
interface Request<Q> {
  type: 'port-request';
  id: number;
  request: Q;
}
type Answer<A> = { type: 'port-answer'; id: number; result: A } | { type: 'port-answer'; id: number; failure: string };

const protocolTypes: ReadonlySet<unknown> = new Set(['ack', 'port-request', 'port-answer']);
const isCounted = (message: unknown): message is Counted<object> => (message as { acknowledge?: unknown } | null)?.acknowledge === true;
const typeOf = (message: unknown) => (message as { type?: unknown } | null)?.type;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface PortStreamSenderOptions {
  /** Messages sent and not yet acknowledged, at most. */
  inFlight: number;
  /** The error `send` and `drain` reject with when the receiver reports a failure (its message). */
  failureError?: (message: string) => Error;
}

/** The sending side of a stream: `send` (counted, waits for room), `notify` (not counted), `drain` at the end. */
export class PortStreamSender<M extends object, N = never> {
  readonly #port: MessagePort;
  readonly #inFlight: number;
  readonly #failureError: (message: string) => Error;
  #unacknowledged = 0;
  #failure: Error | null = null;
  #wake: (() => void)[] = [];

  constructor(port: MessagePort, { inFlight, failureError = (message) => new Error(message) }: PortStreamSenderOptions) {
    this.#port = port;
    this.#inFlight = inFlight;
    this.#failureError = failureError;
    port.on('message', (message: unknown) => {
      if (typeOf(message) !== 'ack') return;
      const { failure } = message as StreamAck;
      this.#unacknowledged--;
      if (failure !== undefined) this.#failure ??= this.#failureError(failure);
      for (const wake of this.#wake.splice(0)) wake();
    });
  }

  /** Posts `message` (moving the `transfer` buffers) once fewer than `inFlight` are unacknowledged. */
  async send(message: M, transfer: readonly Transferable[] = []): Promise<void> {
    await this.#waitUntil(() => this.#unacknowledged < this.#inFlight);
    this.#unacknowledged++;
    this.#port.postMessage({ ...message, acknowledge: true } satisfies Counted<M>, transfer);
  }

  /** Posts a message the receiver does not acknowledge and the bound does not count. */
  notify(message: N, transfer: readonly Transferable[] = []): void {
    this.#port.postMessage(message, transfer);
  }

  /** Resolves once every message sent is acknowledged; rejects if the receiver reported a failure. */
  drain(): Promise<void> {
    return this.#waitUntil(() => this.#unacknowledged === 0);
  }

  async #waitUntil(ready: () => boolean): Promise<void> {
    for (;;) {
      if (this.#failure) throw this.#failure;
      if (ready()) return;
      await new Promise<void>((resolve) => this.#wake.push(resolve));
    }
  }
}

export interface PortStreamHandlers<M, N> {
  /** Handles one counted message; it is acknowledged once this settles (as a failure if it throws or rejects). */
  handle: (message: M) => Promise<void> | void;
  /** Handles a message posted with `notify`. */
  notice?: (message: N) => void;
  /** Called once, with the first handler's failure (before its acknowledgement is posted). */
  onFailure?: (error: unknown) => void;
}

export interface PortStreamReceiver {
  /** The first handler's failure, `null` while there is none. */
  readonly failure: unknown;
  /** Resolves once every handler started so far has settled; rejects with the first failure. */
  finished(): Promise<void>;
}

/** The receiving side of a stream: runs `handle` for each counted message as it comes and acknowledges it. */
export function receivePortStream<M extends object, N = never>(port: MessagePort, { handle, notice, onFailure }: PortStreamHandlers<M, N>): PortStreamReceiver {
  const running = new Set<Promise<void>>();
  let failure: unknown = null;
  let failed = false;
  const acknowledge = (ack: StreamAck) => port.postMessage(ack);
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    failure = error;
    onFailure?.(error);
  };
  const receive = (message: M) => {
    if (failed) return acknowledge({ type: 'ack', failure: 'an earlier part failed' });
    // Started now, not after the previous one: the handlers begin in the order the messages were sent.
    let handled: Promise<void>;
    try {
      handled = Promise.resolve(handle(message));
    } catch (error) {
      handled = Promise.reject(error);
    }
    const settled = handled.then(
      () => acknowledge({ type: 'ack' }),
      (error: unknown) => {
        fail(error);
        acknowledge({ type: 'ack', failure: messageOf(error) });
      },
    );
    running.add(settled);
    void settled.finally(() => running.delete(settled));
  };
  port.on('message', (message: unknown) => {
    // The marker stays on the message: one more field is cheaper than a copy of each.
    if (isCounted(message)) return receive(message as unknown as M);
    if (!protocolTypes.has(typeOf(message))) notice?.(message as N);
  });
  return {
    get failure() {
      return failure;
    },
    finished: async () => {
      await Promise.all(running);
      if (failed) throw failure;
    },
  };
}

/**
 * Requests over a port as promises: `request(q)` posts it and resolves with the other side's answer
 * (`answerRequests`), or rejects with its failure's message. Any number may be pending.
 */
export function requestsOver<Q, A>(port: MessagePort): (request: Q) => Promise<A> {
  let nextId = 0;
  const pending = new Map<number, { resolve: (result: A) => void; reject: (error: Error) => void }>();
  port.on('message', (message: unknown) => {
    if (typeOf(message) !== 'port-answer') return;
    const answer = message as Answer<A>;
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if ('failure' in answer) waiting?.reject(new Error(answer.failure));
    else waiting?.resolve(answer.result);
  });
  return (request) =>
    new Promise<A>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      port.postMessage({ type: 'port-request', id, request } satisfies Request<Q>);
    });
}

/** Answers each request of `requestsOver` on the other side with `answer`'s result (or its failure's message). */
export function answerRequests<Q, A>(port: MessagePort, answer: (request: Q) => Promise<A>): void {
  port.on('message', (message: unknown) => {
    if (typeOf(message) !== 'port-request') return;
    const { id, request } = message as Request<Q>;
    void Promise.resolve(request)
      .then(answer)
      .then(
        (result) => port.postMessage({ type: 'port-answer', id, result } satisfies Answer<A>),
        (error: unknown) => port.postMessage({ type: 'port-answer', id, failure: messageOf(error) } satisfies Answer<A>),
      );
  });
}
