/**
 * The route table: one entry per API call, written once and read by both sides. The server registers a
 * route from its entry (server/lib/routes.ts: validation, auth, OpenAPI, and the handler's request and
 * answer typed from the schemas); the PWA calls it with `callApi(entry, {params, query, body})`
 * (src/lib/call-api.ts), so no path is written twice and no answer is cast by hand.
 */
import * as v from 'valibot';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRoute {
  method: HttpMethod;
  /** The full path, fastify style: `/api/v1/projects/:id`. */
  path: `/api/${string}`;
  params?: v.GenericSchema;
  query?: v.GenericSchema;
  body?: v.GenericSchema;
  /**
   * The body is multipart/form-data (uploaded files) instead of JSON: the client sends a `FormData`, the
   * handler reads and checks the parts itself as they stream in. Names the form's fields for the OpenAPI
   * document: `file` one file, `files` several, `text` a plain value.
   */
  multipart?: { readonly [field: string]: 'file' | 'files' | 'text' };
  /** Answers by status code: the 2xx ones type the handler's return and the client's result; all are documented. */
  response: { readonly [status: number]: v.GenericSchema };
  /** `true`: a bearer token is required (401 before the body is read); `'optional'`: checked when sent. */
  auth?: boolean | 'optional';
  /**
   * Only for a caller whose e-mail is verified (403 `EMAIL_NOT_VERIFIED` otherwise): what spends or moves
   * tokens or buys them, so a throwaway address neither pays with its welcome credit nor passes tokens on.
   */
  verifiedEmail?: true;
  /**
   * Who may call it beyond being signed in (403 otherwise, before the body is validated):
   * `platform-admin`, a platform administrator (every route under /api/v1/admin and nothing else);
   * `organization-manager`, the owner or an admin of the caller's current organization.
   */
  access?: 'platform-admin' | 'organization-manager';
  tags: string[];
  summary: string;
}

/** What the PWA gets from a call of a file route (an invoice PDF, an export): the bytes and the answer's headers. */
export interface ApiFile {
  blob: Blob;
  /** The file name is in `content-disposition`. */
  headers: Headers;
}

// A type, not an interface: metadata must be a Record<string, unknown>.
type FileAnswerMetadata = {
  fileMediaTypes: string[];
};

/**
 * A 2xx answer that is a file of these media types, not JSON: the OpenAPI document shows it as binary,
 * the PWA reads it with `callApi(route, { mode: 'download' })` (an `ApiFile`), and the server's handler
 * sends the bytes itself.
 */
export const fileAnswer = (...mediaTypes: [string, ...string[]]) =>
  v.pipe(v.custom<ApiFile>(() => true), v.metadata<ApiFile, FileAnswerMetadata>({ fileMediaTypes: mediaTypes }));

/** The media types of a file answer's schema; undefined for a JSON one. */
export function fileMediaTypesOf(schema: v.GenericSchema): string[] | undefined {
  return (v.getMetadata(schema) as Partial<FileAnswerMetadata>).fileMediaTypes;
}

/**
 * The 200 of a run's progress stream (server/lib/progress-stream.ts): `text/event-stream`, not JSON.
 * `body` names what each event carries: the same body as the run's GET.
 */
export const progressEventStream = (body: string) =>
  v.pipe(
    v.unknown(),
    v.description(`text/event-stream: \`progress\` ${body} on connect and on every change, then \`done\` ${body} and the stream ends; \`: ping\` every 15 s`),
  );

/** Keeps the entry's literal types (method, schemas by status) while checking it is a route. */
export const defineRoute = <R extends ApiRoute>(route: R): R => route;

type SuccessStatus = 200 | 201 | 202 | 204;
type SuccessSchema<R extends ApiRoute> = R['response'][Extract<keyof R['response'], SuccessStatus>];

/** What the handler returns (and the server sends): the input type of the route's 2xx schemas. */
export type ApiResponseInput<R extends ApiRoute> = v.InferInput<SuccessSchema<R>>;
/** What the client receives, typed as the contract's own types are (the schemas' output). */
export type ApiResponse<R extends ApiRoute> = v.InferOutput<SuccessSchema<R>>;

type InputOf<S> = S extends v.GenericSchema ? v.InferInput<S> : never;

/** The path parameters, query and body a call of the route sends; a part it has none of is absent. */
export type ApiCallParts<R extends ApiRoute> = (R['params'] extends v.GenericSchema ? { params: InputOf<R['params']> } : { params?: never }) &
  (R['query'] extends v.GenericSchema ? { query?: InputOf<R['query']> } : { query?: never }) &
  (R extends { multipart: object }
    ? { body: FormData }
    : R['body'] extends v.GenericSchema ? (undefined extends InputOf<R['body']> ? { body?: InputOf<R['body']> } : { body: InputOf<R['body']> }) : { body?: never });

/** The address of a call: the route's path with its `:name` parameters filled in (URI-encoded). */
export function pathOf(route: Pick<ApiRoute, 'path'>, params?: Record<string, unknown>): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new Error(`${route.path}: the parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}
