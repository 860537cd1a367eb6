import * as v from 'valibot';
import { text } from './text.js';
import { apiMessages, genericValidationMessages } from './messages.js';

export const ErrorDetailSchema = v.object({ loc: v.array(v.union([v.string(), v.number()])), msg: v.string() });

/** The body of every non-OK API answer. */
export const ErrorBodySchema = v.object({
  error: v.string(),
  code: v.string(),
  detail: v.optional(v.array(ErrorDetailSchema)),
});
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;

export const UuidSchema = v.pipe(text(), v.uuid(genericValidationMessages.uuid));
export const IdParamsSchema = v.object({ id: UuidSchema });

/**
 * The price (tokens) a paid start's screen showed and the person confirmed. The server charges it or
 * nothing: a run priced otherwise now is refused with 409 `PRICE_CHANGED`. The web app always sends it.
 */
export const ExpectedCostSchema = v.pipe(
  v.number(apiMessages.expectedCostInvalid),
  v.integer(apiMessages.expectedCostInvalid),
  v.minValue(0, apiMessages.expectedCostInvalid),
  v.maxValue(1_000_000_000, apiMessages.expectedCostInvalid),
);

export const MessageSchema = v.object({ message: v.string() });

/** A 204 answer: no body (documents the status in the OpenAPI document). */
export const NoContentSchema = v.null();

/** Page query for list endpoints; strings from the URL are turned into numbers. */
export const PageQuerySchema = v.object({
  page: v.optional(v.pipe(v.unknown(), v.transform(Number), v.number(), v.integer(), v.minValue(1)), 1),
  page_size: v.optional(v.pipe(v.unknown(), v.transform(Number), v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 20),
});

export const pageOf = <T extends v.GenericSchema>(item: T) =>
  v.object({ items: v.array(item), total: v.number(), page: v.number(), page_size: v.number() });

/**
 * A document the engines write and the API hands on as stored (a finding, a suggestion, a summary…):
 * typed by its TypeScript interface, checked as a JSON object, documented by `description`. Its fields
 * are the engine's types (contract/analysis-results.ts), not a second schema that could drift.
 */
export const documentOf = <T extends object>(description: string) =>
  v.pipe(
    v.custom<T>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'an object is expected'),
    v.description(description),
  );
