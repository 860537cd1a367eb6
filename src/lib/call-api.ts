/**
 * Typed calls of the route table (contract/routes) over the one HTTP client: the path comes from the
 * table entry with its parameters filled in, the body and query are typed from the entry's schemas and
 * the answer is the entry's 2xx response type, so a screen never writes an API path or casts an answer.
 * A GET whose answer is not JSON is read in the client's download mode (`mode: 'download'`: a file's bytes
 * and headers) or stream mode (`mode: 'stream'`: an event stream's `Response`, its body unread), with the
 * same 401 → refresh → retry rule.
 */
import { pathOf, type ApiCallParts, type ApiResponse, type ApiRoute } from '@contract/routes/route.js';
import { apiClient, type RequestOptions } from './api-client';

export type CallOptions = Omit<RequestOptions, 'params'>;
type CallInput<R extends ApiRoute> = ApiCallParts<R> & CallOptions;

/** A route whose call needs no parameters and no body can be called with nothing else. */
type CallArgs<R extends ApiRoute> = Record<never, never> extends ApiCallParts<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

/** The file of a download: its bytes and the answer's headers (its name is in `content-disposition`). */
export type DownloadedFile = Awaited<ReturnType<typeof apiClient.download>>;

export function callApi<R extends ApiRoute & { method: 'GET' }>(route: R, input: CallInput<R> & { mode: 'download' }): Promise<DownloadedFile>;
export function callApi<R extends ApiRoute & { method: 'GET' }>(route: R, input: CallInput<R> & { mode: 'stream' }): Promise<Response>;
export function callApi<R extends ApiRoute>(route: R, ...[input]: CallArgs<R>): Promise<ApiResponse<R>>;
export function callApi(route: ApiRoute, input?: CallOptions & { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; mode?: 'download' | 'stream' }): Promise<unknown> {
  const { params, query, body, mode, ...options } = input ?? {};
  const path = pathOf(route, params);
  const opts: RequestOptions = { ...options, params: query };
  if (mode === 'download') return apiClient.download(path, opts);
  if (mode === 'stream') return apiClient.stream(path, opts);
  switch (route.method) {
    case 'GET':
      return apiClient.get(path, opts);
    case 'DELETE':
      return apiClient.delete(path, opts);
    case 'POST':
      return apiClient.post(path, body, opts);
    case 'PUT':
      return apiClient.put(path, body, opts);
    case 'PATCH':
      return apiClient.patch(path, body, opts);
  }
}
