import type { FastifyPluginAsync } from 'fastify';
import { directConnectionRoutes as routes } from '../../contract/routes/direct-connections.js';
import { callerOf } from '../auth/authenticate.js';
import { addRoute } from '../lib/routes.js';
import { clientProjects, readAgencyClientImports, startAgencyClientImports } from '../projects/agency-imports.js';
import { agencyClients, disconnect, finishAuthorization, listConnections, startAuthorization } from './connections.js';

/** Connecting Yandex Direct accounts by OAuth: any member connects for the organization; tokens stay here. */
export const directConnectionRoutes: FastifyPluginAsync = async (app) => {
  const { yandexOAuth, secretsKey } = app.config;

  addRoute(app, routes.list, async (request) => listConnections(app.db, yandexOAuth, callerOf(request)));

  addRoute(app, routes.authorize, async (request) => ({
    authorize_url: await startAuthorization(app.db, yandexOAuth, secretsKey, callerOf(request)),
  }));

  addRoute(app, routes.callback, async (request, reply) => {
    const connection = await finishAuthorization(app.db, yandexOAuth, secretsKey, callerOf(request), request.body);
    reply.status(201);
    return connection;
  });

  addRoute(app, routes.clients, async (request) => {
    const { organizationId } = callerOf(request);
    const list = await agencyClients(app.db, app.config, organizationId, request.params.id);
    const projects = await clientProjects(app.db, organizationId, request.params.id);
    return { agency: list.agency, clients: list.clients.map((client) => ({ ...client, project: projects.get(client.login.toLowerCase()) ?? null })) };
  });

  addRoute(app, routes.startClientImports, async (request, reply) => {
    const list = await startAgencyClientImports(app.db, app.jobs, app.config, callerOf(request), request.params.id, request.body.logins);
    reply.status(202);
    return list;
  });

  addRoute(app, routes.clientImports, async (request) => readAgencyClientImports(app.db, app.jobs, app.config, callerOf(request), request.params.id));

  addRoute(app, routes.disconnect, async (request, reply) => {
    await disconnect(app.db, callerOf(request), request.params.id);
    reply.status(204);
    return null;
  });
};
