import * as v from 'valibot';
import { text } from './text.js';
import { directConnectionMessages as m } from './messages.js';

// /api/v1/direct/connections: Yandex Direct accounts connected by OAuth through Yandex ID.

/** A connected account as the PWA shows it; its tokens never leave the server. */
export const DirectConnectionSchema = v.object({
  id: v.string(),
  /** The Yandex login the tokens belong to. */
  login: v.string(),
  /** When the access token runs out (ISO); the server renews it before then with the refresh token. */
  expires_at: v.string(),
  connected_at: v.string(),
  connected_by: v.nullable(v.string()),
});
export type DirectConnection = v.InferOutput<typeof DirectConnectionSchema>;

export const DirectConnectionListSchema = v.object({
  /** Whether «Подключить Яндекс Директ» works on this server (a Yandex ID application is configured). */
  oauth_available: v.boolean(),
  connections: v.array(DirectConnectionSchema),
});
export type DirectConnectionList = v.InferOutput<typeof DirectConnectionListSchema>;

/** The project a client of this connection already has: opened or refreshed, never made twice. */
const ClientProjectSchema = v.object({
  id: v.string(),
  name: v.string(),
  /** API points its last import spent, when it was read through the API. */
  units_spent: v.nullable(v.number()),
});

/** GET /direct/connections/:id/clients: an agency account's clients; an advertiser's account has none. */
export const AgencyClientListSchema = v.object({
  agency: v.boolean(),
  clients: v.array(v.object({ login: v.string(), name: v.string(), project: v.nullable(ClientProjectSchema) })),
});
export type AgencyClientList = v.InferOutput<typeof AgencyClientListSchema>;

/** POST /direct/connections/authorize: where to send the person (Yandex ID's consent page). */
export const AuthorizeResponseSchema = v.object({ authorize_url: v.string() });

/** POST /direct/connections/callback: what Yandex ID put on the redirect address, passed on by the PWA. */
export const OAuthCallbackSchema = v.object({
  state: v.pipe(text(m.stateRequired), v.minLength(1, m.stateRequired), v.maxLength(200, m.stateInvalid)),
  code: v.optional(v.pipe(text(), v.maxLength(500))),
  error: v.optional(v.pipe(text(), v.maxLength(200))),
  error_description: v.optional(v.pipe(text(), v.maxLength(1000))),
});
export type OAuthCallback = v.InferOutput<typeof OAuthCallbackSchema>;

export const AGENCY_CLIENT_IMPORT_STATUSES = ['waiting', 'importing', 'completed', 'failed'] as const;

/** POST /direct/connections/:id/client-imports: the clients (logins) to get a project each. */
export const AgencyClientImportStartSchema = v.object({
  logins: v.pipe(
    v.array(v.pipe(text(m.clientLoginInvalid), v.trim(), v.minLength(1, m.clientLoginInvalid), v.maxLength(100, m.clientLoginInvalid)), m.clientsRequired),
    v.minLength(1, m.clientsRequired),
    v.maxLength(1000, m.clientsTooMany),
  ),
});
export type AgencyClientImportStart = v.InferOutput<typeof AgencyClientImportStartSchema>;

/** One client's turn: waiting for a slot, importing, done (its project created or refreshed) or failed. */
export const AgencyClientImportSchema = v.object({
  id: v.string(),
  client_login: v.string(),
  client_name: v.string(),
  status: v.picklist(AGENCY_CLIENT_IMPORT_STATUSES),
  /** The import job reading it (GET /projects/import-jobs/:id), once it has one. */
  import_job_id: v.nullable(v.string()),
  /** While importing: the stage of the read (the import job's progress stage). */
  stage: v.nullable(v.string()),
  project: v.nullable(v.object({ id: v.string(), name: v.string() })),
  /** The client's project existed and was read again (its campaigns replaced), not created. */
  refreshed: v.boolean(),
  /** API points the read spent so far (live while importing). */
  units_spent: v.nullable(v.number()),
  error: v.nullable(v.string()),
  error_code: v.nullable(v.string()),
  created_at: v.string(),
  finished_at: v.nullable(v.string()),
});
export type AgencyClientImport = v.InferOutput<typeof AgencyClientImportSchema>;

/** The latest turn of each client of the connection, and how many are read at once. */
export const AgencyClientImportListSchema = v.object({
  imports: v.array(AgencyClientImportSchema),
  concurrency: v.number(),
});
export type AgencyClientImportList = v.InferOutput<typeof AgencyClientImportListSchema>;
