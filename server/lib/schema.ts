import { toJsonSchema } from '@valibot/to-json-schema';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import * as v from 'valibot';
// Russian for valibot's own messages, before any schema is used (the contract modules load it too).
import '../../contract/validation-language.js';
import { fileMediaTypesOf } from '../../contract/routes/route.js';
import { genericValidationMessages } from '../../contract/messages.js';
import { HttpError, validationError, type ErrorDetail } from './errors.js';

/**
 * Routes declare their contract with valibot schemas from `contract` (shared with the PWA).
 * Fastify receives the JSON Schema form for the OpenAPI document, and validation runs the
 * original valibot schema, found again through this map, so the messages are valibot's Russian ones.
 */
const valibotByJsonSchema = new WeakMap<object, v.GenericSchema>();

export function jsonSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  const json = openApiSchemaOf(schema);
  valibotByJsonSchema.set(json, schema);
  return json;
}

/**
 * The OpenAPI 3.0.3 Schema Object of a contract schema. `@valibot/to-json-schema` writes a few JSON Schema
 * forms that OpenAPI 3.0 does not allow (an empty `required` when every key is optional or has a
 * default, `const`, `$schema`), so they are rewritten into their 3.0 equivalents, at every depth.
 */
export function openApiSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  const json = toJsonSchema(schema, { errorMode: 'ignore', target: 'openapi-3.0' } as Parameters<typeof toJsonSchema>[1]) as Record<string, unknown>;
  return toOpenApi30(json) as Record<string, unknown>;
}

function toOpenApi30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toOpenApi30);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema') continue;
    if (key === 'required' && Array.isArray(value) && value.length === 0) continue;
    if (key === 'const') {
      out.enum = [value];
      continue;
    }
    // Maps of names to schemas: the names are not keywords, only their values are schemas.
    out[key] = key === 'properties' && typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).map(([name, child]) => [name, toOpenApi30(child)]))
      : toOpenApi30(value);
  }
  return out;
}

export function issuesToDetail(part: string, issues: readonly v.BaseIssue<unknown>[]): ErrorDetail[] {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => item.key as string | number);
    return { loc: [part, ...path], msg: issue.message };
  });
}

type JsonSchemaNode = { type?: unknown; properties?: Record<string, JsonSchemaNode>; items?: JsonSchemaNode };

/**
 * Where `data` has an array in a place its JSON schema wants an object, or null. valibot's `object` takes
 * any `typeof 'object'`, arrays included, so `[]` would pass as `{}` where every key is optional.
 */
function arrayInPlaceOfObject(json: JsonSchemaNode, data: unknown, path: (string | number)[] = []): (string | number)[] | null {
  if (json.type === 'object') {
    if (Array.isArray(data)) return path;
    if (!json.properties || typeof data !== 'object' || data === null) return null;
    for (const [key, child] of Object.entries(json.properties)) {
      const found = arrayInPlaceOfObject(child, (data as Record<string, unknown>)[key], [...path, key]);
      if (found) return found;
    }
  } else if (json.type === 'array' && json.items?.type && Array.isArray(data)) {
    for (const [index, item] of data.entries()) {
      const found = arrayInPlaceOfObject(json.items, item, [...path, index]);
      if (found) return found;
    }
  }
  return null;
}

export const valibotValidatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const valibot = valibotByJsonSchema.get(schema as object);
  if (!valibot) return (data) => ({ value: data });
  const part = httpPart ?? 'body';
  const wantsObject = (schema as JsonSchemaNode).type === 'object';
  return (data) => {
    // A body that is not an object at all (an array, a string, a number) is a malformed request, not a form to
    // correct: 400. (No body, or null, goes to the schema, which may allow it.)
    if (wantsObject && data !== undefined && data !== null && (typeof data !== 'object' || Array.isArray(data))) {
      return { error: new HttpError(400, 'VALIDATION_ERROR', genericValidationMessages.object, [{ loc: [part], msg: genericValidationMessages.object }]) };
    }
    const nestedArray = arrayInPlaceOfObject(schema as JsonSchemaNode, data);
    if (nestedArray) return { error: validationError([{ loc: [part, ...nestedArray], msg: genericValidationMessages.object }]) };
    const result = v.safeParse(valibot, data);
    if (result.success) return { value: result.output };
    return { error: validationError(issuesToDetail(part, result.issues)) };
  };
};

/** Validates an already-read value (multipart fields, query of a stream) against a contract schema. */
export function parseOrThrow<S extends v.GenericSchema>(schema: S, data: unknown, part = 'body'): v.InferOutput<S> {
  const result = v.safeParse(schema, data);
  if (!result.success) throw validationError(issuesToDetail(part, result.issues));
  return result.output;
}

/**
 * The fastify-side form of a route's contract, which `addRoute` (server/lib/routes.ts) builds from a
 * route table entry (contract/routes); every domain's routes are in the table now.
 */
export interface RouteContract {
  body?: v.GenericSchema;
  querystring?: v.GenericSchema;
  params?: v.GenericSchema;
  /** Documented responses by status code; used for the OpenAPI document only. */
  response?: Record<number, v.GenericSchema>;
  tags?: string[];
  summary?: string;
  /**
   * Needs a bearer access token: `true` refuses a call without a valid one (401, before the body is read
   * or validated); `'optional'` checks a token when one is sent. Enforced for every route in one place,
   * the `onRoute` hook of server/app.ts, and shown in the OpenAPI document.
   */
  auth?: boolean | 'optional';
}

export type AuthMode = true | 'optional';
const authModeBySchema = new WeakMap<object, AuthMode>();

/** The contract's `auth` of a route, read back from the schema `routeSchema` built for it. */
export function authModeOf(schema: unknown): AuthMode | undefined {
  return typeof schema === 'object' && schema !== null ? authModeBySchema.get(schema) : undefined;
}

export type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : unknown;

/** Every contract a route was built from, in this process (tests walk them, e.g. for the text rule). */
export const routeContracts = new Set<RouteContract>();

/** A response's OpenAPI form: a JSON schema, or for a file answer its media types with binary content. */
function responseSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  const mediaTypes = fileMediaTypesOf(schema);
  if (!mediaTypes) return openApiSchemaOf(schema);
  const binary = { schema: { type: 'string', format: 'binary' } };
  return { description: `A file (${mediaTypes.join(', ')}), its name in content-disposition`, content: Object.fromEntries(mediaTypes.map((type) => [type, binary])) };
}

/** The Fastify `schema` of a route, built from its valibot contract. */
export function routeSchema(contract: RouteContract): FastifySchema {
  routeContracts.add(contract);
  const schema: FastifySchema & Record<string, unknown> = {};
  if (contract.body) schema.body = jsonSchemaOf(contract.body);
  if (contract.querystring) schema.querystring = jsonSchemaOf(contract.querystring);
  if (contract.params) schema.params = jsonSchemaOf(contract.params);
  if (contract.response) {
    schema.response = Object.fromEntries(Object.entries(contract.response).map(([status, s]) => [status, responseSchemaOf(s)]));
  }
  if (contract.tags) schema.tags = contract.tags;
  if (contract.summary) schema.summary = contract.summary;
  if (contract.auth) {
    // OpenAPI's way to say "a bearer token, or none": an empty requirement beside it.
    schema.security = contract.auth === 'optional' ? [{ bearerAuth: [] }, {}] : [{ bearerAuth: [] }];
    authModeBySchema.set(schema, contract.auth);
  }
  return schema;
}
