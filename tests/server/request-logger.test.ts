import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger, RequestLogController, type RequestLogPolicy } from '../../server/lib/logger.js';

/** A fastify app with the server's request-logger factory, its log lines collected. */
function appLoggingTo(lines: Record<string, unknown>[], level: string, policy: RequestLogPolicy = { sampleEvery: 1, slowMs: 1000 }) {
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyRequestLogger, logController: new RequestLogController(policy) });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw new Error('boom');
  });

  app.get('/warns', async (request) => {
    request.log.warn({ detail: 42 }, 'something odd');
    request.log.debug('not at this level');
    return { ok: true };
  });
  return { app, logger };
}

describe('request loggers', () => {
  it('bind each line a request logs to its request id, at the configured level only', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app } = appLoggingTo(lines, 'warn');
    const first = await app.inject({ method: 'GET', url: '/warns' });
    const second = await app.inject({ method: 'GET', url: '/warns' });
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(lines.map((line) => line.msg)).toEqual(['something odd', 'something odd']);
    expect(lines[0]).toMatchObject({ level: 40, detail: 42 });
    expect(lines[0].reqId).toEqual(expect.any(String));
    expect(lines[1].reqId).not.toBe(lines[0].reqId);
    await app.close();
  });

  it('log an answered request in one line at info, with the request, the answer and its id (when every request is kept)', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app } = appLoggingTo(lines, 'info');
    await app.inject({ method: 'GET', url: '/quiet' });
    expect(lines.map((line) => line.msg)).toEqual(['request completed']);
    expect(lines[0]).toMatchObject({ level: 30, req: { method: 'GET', url: '/quiet' }, res: { statusCode: 200 }, responseTime: expect.any(Number) });
    expect(lines[0].reqId).toEqual(expect.any(String));
    await app.close();
  });

  it('log a request as it arrives at debug only', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app } = appLoggingTo(lines, 'debug');
    await app.inject({ method: 'GET', url: '/quiet' });
    expect(lines.map((line) => [line.msg, line.level])).toEqual([
      ['incoming request', 20],
      ['request completed', 30],
    ]);
    expect(lines[0].reqId).toBe(lines[1].reqId);
    await app.close();
  });

  it('keep one answer in REQUEST_LOG_SAMPLE at info, but every error and every slow answer', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app } = appLoggingTo(lines, 'info', { sampleEvery: 10, slowMs: 60_000 });
    for (let i = 0; i < 25; i++) await app.inject({ method: 'GET', url: '/quiet' });
    expect(lines.filter((line) => line.msg === 'request completed')).toHaveLength(2);
    expect(lines[0]).toMatchObject({ sampledOneIn: 10 });
    lines.length = 0;
    await app.inject({ method: 'GET', url: '/fails' });
    const completed = lines.filter((line) => line.msg === 'request completed');
    expect(completed).toEqual([expect.objectContaining({ level: 50, req: expect.objectContaining({ url: '/fails' }), res: { statusCode: 500 } })]);
    await app.close();

    const slowLines: Record<string, unknown>[] = [];
    const slow = appLoggingTo(slowLines, 'warn', { sampleEvery: 0, slowMs: 0 });
    // Every answer takes at least 0 ms: each is slow to this policy.
    await slow.app.inject({ method: 'GET', url: '/quiet' });
    expect(slowLines).toEqual([expect.objectContaining({ level: 40, msg: 'slow request', req: expect.objectContaining({ url: '/quiet' }) })]);
    await slow.app.close();
  });

  it('cost a request that logs nothing no child logger', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app, logger } = appLoggingTo(lines, 'warn');
    let children = 0;
    const makeChild = logger.child.bind(logger);
    logger.child = ((...args: Parameters<typeof logger.child>) => {
      children++;
      return makeChild(...args);
    }) as typeof logger.child;
    await app.inject({ method: 'GET', url: '/quiet' });
    expect(children).toBe(0);
    await app.inject({ method: 'GET', url: '/warns' });
    expect(children).toBe(1);
    await app.close();
  });
});
