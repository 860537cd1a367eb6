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

/** GET /direct/connections/:id/clients: an agency account's clients; an advertiser's account has none. */
export const AgencyClientListSchema = v.object({
  agency: v.boolean(),
  clients: v.array(v.object({ login: v.string(), name: v.string() })),
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
