/** /api/v1/direct/connections: connecting Yandex Direct accounts through Yandex ID (OAuth, PKCE). */
import { ErrorBodySchema, IdParamsSchema, NoContentSchema } from '../common.js';
import { AgencyClientImportListSchema, AgencyClientImportStartSchema, AgencyClientListSchema, AuthorizeResponseSchema, DirectConnectionListSchema, DirectConnectionSchema, OAuthCallbackSchema } from '../direct-connections.js';
import { defineRoute } from './route.js';

const tags = ['direct-connections'];

export const directConnectionRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/direct/connections',
    response: { 200: DirectConnectionListSchema },
    tags,
    summary: "The organization's connected Yandex Direct accounts, and whether connecting by OAuth is available",
    auth: true,
  }),
  authorize: defineRoute({
    method: 'POST',
    path: '/api/v1/direct/connections/authorize',
    response: { 200: AuthorizeResponseSchema, 503: ErrorBodySchema },
    tags,
    summary: "Starts connecting: a state bound to the caller and a PKCE challenge; answers Yandex ID's consent address",
    auth: true,
  }),
  callback: defineRoute({
    method: 'POST',
    path: '/api/v1/direct/connections/callback',
    body: OAuthCallbackSchema,
    response: { 201: DirectConnectionSchema, 400: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema },
    tags,
    summary: "Finishes connecting: checks the state is the caller's, exchanges the code (with the PKCE verifier) and keeps the tokens sealed",
    auth: true,
  }),
  clients: defineRoute({
    method: 'GET',
    path: '/api/v1/direct/connections/:id/clients',
    params: IdParamsSchema,
    response: { 200: AgencyClientListSchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 502: ErrorBodySchema },
    tags,
    summary: "An agency account's clients (agencyclients.get), each read with its Client-Login; agency: false for an advertiser's own account",
    auth: true,
  }),
  startClientImports: defineRoute({
    method: 'POST',
    path: '/api/v1/direct/connections/:id/client-imports',
    params: IdParamsSchema,
    body: AgencyClientImportStartSchema,
    response: { 202: AgencyClientImportListSchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema },
    tags,
    summary: "An agency's clients → a project each: every client is imported by a background Direct import job (a few at a time); a client with a project of this connection has it refreshed, never duplicated",
    auth: true,
  }),
  clientImports: defineRoute({
    method: 'GET',
    path: '/api/v1/direct/connections/:id/client-imports',
    params: IdParamsSchema,
    response: { 200: AgencyClientImportListSchema, 404: ErrorBodySchema },
    tags,
    summary: "The latest import of each client of an agency connection: status, stage, project, API points spent, the Russian error of a client that failed",
    auth: true,
  }),
  disconnect: defineRoute({
    method: 'DELETE',
    path: '/api/v1/direct/connections/:id',
    params: IdParamsSchema,
    response: { 204: NoContentSchema, 403: ErrorBodySchema, 404: ErrorBodySchema },
    tags,
    summary: 'Forgets a connected account and its tokens (who connected it, or the owner)',
    auth: true,
  }),
};
