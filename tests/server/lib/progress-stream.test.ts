import { once } from 'node:events';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProgressHub, progressStreams, streamProgress, type ProgressHub } from '../../../server/lib/progress-stream.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { forEachServerEvent } from '../helpers/progress-stream.js';

/** A run of the test: its state is what `runs` holds, changed by the test, announced with NOTIFY. */
interface TestRun {
  id: string;
  status: 'running' | 'completed';
  progress: number;
}

describe('the live progress channel (server/lib/progress-stream.ts)', () => {
  let database: TestDatabase;
  let hub: ProgressHub;
  let app: FastifyInstance;
  let address: string;
  const runs = new Map<string, TestRun>();

  beforeAll(async () => {
    database = await createTestDatabase();
    hub = createProgressHub({ connectionString: database.url, channels: ['test_progress', 'other_progress'] });
    app = Fastify();
    app.addHook('preClose', async () => hub.endStreams());
    app.get<{ Params: { id: string } }>('/runs/:id/events', async (request, reply) => {
      const read = async () => {
        const run = runs.get(request.params.id);
        return run ? { run: { ...run } } : null;
      };
      await streamProgress(hub, request, reply, { channel: 'test_progress', id: request.params.id, read, finished: ({ run }) => run.status === 'completed' });
    });
    address = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await hub?.close();
    await database?.drop();
  });

  const announce = (channel: string, id: string) => sql`SELECT pg_notify(${channel}, ${id})`.execute(database.db);

  /** Opens the stream and hands each event to `onEvent`; resolves with all of them once the server ends it. */
  async function follow(id: string, onEvent: (event: string, run: TestRun) => void | Promise<void> = () => undefined) {
    const response = await fetch(`${address}/runs/${id}/events`);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events: { event: string; run: TestRun }[] = [];
    await forEachServerEvent(response.body!, async (event, data) => {
      const { run } = data as { run: TestRun };
      events.push({ event, run });
      await onEvent(event, run);
    });
    return events;
  }

  it('sends the state on connect, each change announced on its channel, then done, and ends', async () => {
    runs.set('a', { id: 'a', status: 'running', progress: 10 });
    const events = await follow('a', async (_event, run) => {
      if (run.progress === 10) {
        runs.set('a', { id: 'a', status: 'running', progress: 50 });
        await announce('test_progress', 'a');
      } else if (run.progress === 50) {
        runs.set('a', { id: 'a', status: 'completed', progress: 100 });
        await announce('test_progress', 'a');
      }
    });
    expect(events.map(({ event, run }) => [event, run.progress])).toEqual([
      ['progress', 10],
      ['progress', 50],
      ['progress', 100],
      ['done', 100],
    ]);
  });

  it('wakes only the subscribers of the announced channel and id', async () => {
    const sameIdOtherKind = vi.fn();
    const otherRun = vi.fn();
    const announced = vi.fn();
    const fence = vi.fn();
    const subscriptions = [hub.subscribe('other_progress', 'c', sameIdOtherKind), hub.subscribe('test_progress', 'e', otherRun), hub.subscribe('test_progress', 'c', announced), hub.subscribe('test_progress', 'fence', fence)];
    // The first connection wakes everyone (a change before LISTEN would go unseen): a first fence passes it.
    await announce('test_progress', 'fence');
    await vi.waitFor(() => expect(fence).toHaveBeenCalled());
    for (const wake of [sameIdOtherKind, otherRun, announced, fence]) wake.mockClear();

    await announce('test_progress', 'c');
    // Notifications of one session arrive in order: once the fence woke, the one before it was handed out.
    await announce('test_progress', 'fence');
    await vi.waitFor(() => expect(fence).toHaveBeenCalledTimes(1));
    expect(announced).toHaveBeenCalledTimes(1);
    expect(sameIdOtherKind).not.toHaveBeenCalled();
    expect(otherRun).not.toHaveBeenCalled();
    subscriptions.forEach((unsubscribe) => unsubscribe());
  });

  it('ends an open stream when the run is gone, and counts open streams', async () => {
    runs.set('gone', { id: 'gone', status: 'running', progress: 5 });
    const before = progressStreams.open;
    const closed = once(progressStreams, 'closed');
    const events = await follow('gone', async () => {
      expect(progressStreams.open).toBe(before + 1);
      runs.delete('gone');
      await announce('test_progress', 'gone');
    });
    expect(await closed).toEqual(['gone']);
    expect(events.map(({ event }) => event)).toEqual(['progress']);
    expect(progressStreams.open).toBe(before);
  });

  it('without a database connection, wakes the streams on a timer instead', async () => {
    vi.useFakeTimers();
    try {
      const polled = createProgressHub({ connectionString: null, channels: ['test_progress'], pollIntervalMs: 2_000 });
      const wake = vi.fn();
      const unsubscribe = polled.subscribe('test_progress', 'x', wake);
      vi.advanceTimersByTime(4_000);
      expect(wake).toHaveBeenCalledTimes(2);
      unsubscribe();
      vi.advanceTimersByTime(4_000);
      expect(wake).toHaveBeenCalledTimes(2);
      await polled.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends every open stream when the server closes', async () => {
    runs.set('long', { id: 'long', status: 'running', progress: 1 });
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const following = follow('long', () => opened());
    await isOpen;
    await app.close();
    expect((await following).map(({ event }) => event)).toEqual(['progress']);
  });
});
