import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyRequestLogger } from '../../server/lib/logger.js';

/** A fastify app with the server's request-logger factory, its log lines collected. */
function appLoggingTo(lines: Record<string, unknown>[], level: string) {
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyRequestLogger });
  app.get('/quiet', async () => ({ ok: true }));
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

  it('still log every request at info, each with its id', async () => {
    const lines: Record<string, unknown>[] = [];
    const { app } = appLoggingTo(lines, 'info');
    await app.inject({ method: 'GET', url: '/quiet' });
    const messages = lines.map((line) => line.msg);
    expect(messages).toEqual(['incoming request', 'request completed']);
    expect(lines[0].reqId).toBe(lines[1].reqId);
    await app.close();
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
