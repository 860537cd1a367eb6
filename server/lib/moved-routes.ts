/**
 * The old paths of moved API calls (contract/routes/moved.ts): each answers 308 with its new place, its
 * path parameters and query string carried over, so a client keeps its method and body and follows.
 */
import type { FastifyInstance } from 'fastify';
import { movedRoutes } from '../../contract/routes/moved.js';

/** The new path with the old one's parameters in place and its query string kept. */
export function movedLocation(to: string, params: Record<string, string>, url: string): string {
  const query = url.indexOf('?');
  const path = to.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  return query === -1 ? path : path + url.slice(query);
}

export function registerMovedRoutes(app: FastifyInstance): void {
  for (const moved of movedRoutes) {
    const names = [...moved.from.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    const params = names.length ? { type: 'object', properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])), required: names } : undefined;
    app.route({
      method: moved.method,
      url: moved.from,
      schema: {
        summary: `Moved to ${moved.to.method} ${moved.to.path} (308, method and body kept)`,
        tags: [...moved.to.tags],
        deprecated: true,
        ...(params && { params }),
        response: { 308: { description: 'Moved' } },
      },
      handler: (request, reply) => reply.redirect(movedLocation(moved.to.path, request.params as Record<string, string>, request.url), 308),
    });
  }
}
