/**
 * Yandex Direct accounts connected by OAuth (the server keeps their tokens): the list, starting a connection
 * (the PWA then leaves for Yandex ID), finishing it on the way back, reading an account, disconnecting.
 */
import { queryOptions } from '@tanstack/react-query';
import type { OAuthCallback } from '@contract/direct-connections.js';
import { directConnectionRoutes as routes } from '@contract/routes/direct-connections.js';
import { projectRoutes } from '@contract/routes/projects.js';
import { callApi } from './call-api';
import { tabValue } from './storage';

export const directConnectionKeys = { all: ['direct-connections'] as const };

export const directConnectionsQueryOptions = () =>
  queryOptions({
    queryKey: directConnectionKeys.all,
    queryFn: ({ signal }) => callApi(routes.list, { signal }),
  });

/** An agency account's clients (an advertiser's own account: `agency: false`). */
export const agencyClientsQueryOptions = (connectionId: string) =>
  queryOptions({
    queryKey: [...directConnectionKeys.all, connectionId, 'clients'] as const,
    queryFn: ({ signal }) => callApi(routes.clients, { params: { id: connectionId }, signal }),
    staleTime: 5 * 60_000,
  });

/** Where to come back after Yandex ID (the screen that started the connection), kept for this tab only. */
const RETURN_KEY = 'reklama-lab:direct-oauth-return';

/** Without storage the person comes back to the project list. */
export async function startDirectConnection(returnTo: string): Promise<string> {
  const { authorize_url } = await callApi(routes.authorize);
  tabValue.set(RETURN_KEY, returnTo);
  return authorize_url;
}

/** The screen to go back to once the connection is finished (read once). */
export function takeDirectConnectionReturn(): string {
  const value = tabValue.get(RETURN_KEY);
  tabValue.set(RETURN_KEY, null);
  // Only a path of this app: never an address someone put there.
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/projects';
}

export const finishDirectConnection = (body: OAuthCallback) => callApi(routes.callback, { body });

export const disconnectDirectAccount = (id: string) => callApi(routes.disconnect, { params: { id } });

/** Reads the campaigns of a connected account as an import job (an agency names its client's login). */
export const startConnectionImport = (connectionId: string, clientLogin: string) =>
  callApi(projectRoutes.previewFromConnection, { params: { id: connectionId }, body: clientLogin ? { client_login: clientLogin } : {} });

/** An agency's clients → a project each, read in the background (a few at a time). */
export const startAgencyClientImports = (connectionId: string, logins: string[]) =>
  callApi(routes.startClientImports, { params: { id: connectionId }, body: { logins } });

/** The latest import of each client of the connection; polled while any is waiting or importing. */
export const agencyClientImportsQueryOptions = (connectionId: string) =>
  queryOptions({
    queryKey: [...directConnectionKeys.all, connectionId, 'client-imports'] as const,
    queryFn: ({ signal }) => callApi(routes.clientImports, { params: { id: connectionId }, signal }),
    refetchInterval: (query) => (query.state.data?.imports.some((turn) => turn.status === 'waiting' || turn.status === 'importing') ? 1500 : false),
  });
