/**
 * Registers a route from its entry in the route table (contract/routes): the fastify schema comes
 * from the entry through `routeSchema` (valibot validation with Russian messages, the `auth` flag read by
 * the onRoute hook of server/app.ts, the OpenAPI document), the handler's request is typed from the
 * entry's schemas and its return value must match the input type of the entry's 2xx answers.
 *
 * A handler answering another status than 200 sets it first (`reply.status(201)`) and returns the body;
 * a 204 sets the status and returns nothing; a file route (`fileAnswer`) sets its type and returns the bytes
 * (or `reply.type(…).send(bytes)`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import * as v from 'valibot';
import type { ApiFile, ApiResponseInput, ApiRoute } from '../../contract/routes/route.js';
import { routeSchema, type Out } from './schema.js';

export type RouteRequest<R extends ApiRoute> = FastifyRequest<{ Body: Out<R['body']>; Querystring: Out<R['query']>; Params: Out<R['params']> }>;
/** A file route's handler returns the bytes, or the reply it sent them with; any other returns the answer's body. */
type HandlerResult<R extends ApiRoute> = [ApiResponseInput<R>] extends [ApiFile] ? FastifyReply | Uint8Array | string : ApiResponseInput<R>;
export type RouteHandler<R extends ApiRoute> = (request: RouteRequest<R>, reply: FastifyReply) => Promise<HandlerResult<R>>;

/** The table entry of each route registered through `addRoute`, by its fastify schema. */
const apiRouteBySchema = new WeakMap<object, ApiRoute>();

export function apiRouteOf(schema: unknown): ApiRoute | undefined {
  return typeof schema === 'object' && schema !== null ? apiRouteBySchema.get(schema) : undefined;
}

export function addRoute<R extends ApiRoute>(app: FastifyInstance, route: R, options: Omit<RouteShorthandOptions, 'schema'>, handler: RouteHandler<R>): void;
export function addRoute<R extends ApiRoute>(app: FastifyInstance, route: R, handler: RouteHandler<R>): void;
export function addRoute<R extends ApiRoute>(
  app: FastifyInstance,
  route: R,
  optionsOrHandler: Omit<RouteShorthandOptions, 'schema'> | RouteHandler<R>,
  maybeHandler?: RouteHandler<R>,
): void {
  const options = typeof optionsOrHandler === 'function' ? {} : optionsOrHandler;
  const handler = typeof optionsOrHandler === 'function' ? optionsOrHandler : maybeHandler!;
  const schema = routeSchema({
    body: route.body,
    querystring: route.query,
    params: route.params,
    response: route.response,
    tags: route.tags,
    summary: route.summary,
    auth: route.auth,
  });
  if (route.multipart) documentUpload(schema as Record<string, unknown>, route.multipart);
  apiRouteBySchema.set(schema, route);
  app.route({ ...options, method: route.method, url: pathUnderPrefix(app.prefix, route.path), schema, handler: handler as RouteHandlerMethod });
}

/**
 * An upload for the OpenAPI document: multipart/form-data with the form's fields. Documentation only: the
 * validator compiler knows no valibot schema for this body and lets it through, and the handler reads and
 * checks the parts itself.
 */
function documentUpload(schema: Record<string, unknown>, fields: NonNullable<ApiRoute['multipart']>): void {
  const binary = { type: 'string', format: 'binary' };
  const properties = Object.fromEntries(Object.entries(fields).map(([field, kind]) => [field, kind === 'files' ? { type: 'array', items: binary } : kind === 'file' ? binary : { type: 'string' }]));
  schema.consumes = ['multipart/form-data'];
  schema.body = { type: 'object', properties };
}

/** The table holds full paths; a plugin registered under a prefix adds the rest. */
function pathUnderPrefix(prefix: string, path: string): string {
  if (!path.startsWith(prefix)) throw new Error(`${path} is not under the plugin's prefix ${prefix}`);
  return path.slice(prefix.length) || '/';
}

/**
 * Tests only (server/app.ts adds it when NODE_ENV=test): every JSON 2xx answer of a route registered from
 * the table must match that status's response schema. A mismatch turns the answer into a 500 naming it
 * (and prints it), so every API test also checks the real answers against the contract the client is
 * typed from.
 */
export async function checkAnswerAgainstRoute(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const route = apiRouteOf(request.routeOptions.schema);
  const status = reply.statusCode;
  if (!route || status < 200 || status >= 300) return payload;
  if (typeof payload !== 'string' && payload !== undefined && payload !== null) return payload; // a stream or a file
  if (payload && !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
  const where = `${route.method} ${route.path} answered ${status}`;
  const schema = route.response[status];
  const issues = schema ? (v.safeParse(schema, payload ? JSON.parse(payload) : null).issues ?? []) : null;
  if (issues?.length === 0) return payload;
  const detail = issues
    ? issues.map((issue) => ({ loc: ['response', ...(issue.path ?? []).map((item) => item.key as string | number)], msg: issue.message }))
    : [{ loc: ['response'], msg: 'this status is not declared in the route table entry' }];
  console.error(`${where}: the answer does not match the route table`, JSON.stringify(detail));
  reply.status(500);
  return JSON.stringify({ error: `${where}: the answer does not match its response schema`, code: 'RESPONSE_SCHEMA_MISMATCH', detail });
}
