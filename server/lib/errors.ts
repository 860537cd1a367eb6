import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { apiMessages } from '../../contract/messages.js';

/**
 * Every error the API sends has the shape the PWA's error catalogue reads (spec section 8):
 * `{ error: <Russian message for a person>, code: <stable machine code>, detail?: [{ loc, msg }] }`.
 */
export interface ErrorDetail {
  loc: (string | number)[];
  msg: string;
}

export interface ErrorBody {
  error: string;
  code: string;
  detail?: ErrorDetail[];
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly detail?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toBody(): ErrorBody {
    return this.detail ? { error: this.message, code: this.code, detail: this.detail } : { error: this.message, code: this.code };
  }
}

/** 429 in the error format, with `Retry-After` (set by the app's error handler), for limits counted in code. */
export class RateLimitedError extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'RATE_LIMITED', apiMessages.tooManyRequests);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, code, message);
export const unauthorized = (message = 'Unauthorized', code = 'UNAUTHORIZED') => new HttpError(401, code, message);
export const forbidden = (message = 'Недостаточно прав', code = 'FORBIDDEN') => new HttpError(403, code, message);
export const notFound = (message = 'Не найдено', code = 'NOT_FOUND') => new HttpError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new HttpError(409, code, message);
export const paymentRequired = (message: string, code = 'INSUFFICIENT_TOKENS') => new HttpError(402, code, message);

/** A request that is well-formed but breaks a rule; the messages are the ones the forms show. */
export function validationError(detail: ErrorDetail[]): HttpError {
  return new HttpError(422, 'VALIDATION_ERROR', detail.map((d) => d.msg).join(', '), detail);
}

/**
 * A request Node's HTTP parser refused before fastify saw it (headers or URL over 16 KB, a malformed
 * request line, a client too slow to send its headers): the answer in the error format, in Russian,
 * written on the socket as Node's own would be, and the connection closed (replaces fastify's English
 * `clientErrorHandler`).
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection has nobody to answer (https://nodejs.org/api/http.html#event-clienterror).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body]: [number, ErrorBody] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, { error: apiMessages.requestTooLong, code: 'REQUEST_TOO_LONG' }]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, { error: apiMessages.requestTimeout, code: 'REQUEST_TIMEOUT' }]
        : [400, { error: apiMessages.badRequest, code: 'BAD_REQUEST' }];
  const json = Buffer.from(JSON.stringify(body));
  if (socket.writable) {
    const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n`;
    socket.write(Buffer.concat([Buffer.from(head), json]));
  }
  socket.destroy(error);
}
