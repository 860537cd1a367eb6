import type { FastifyPluginAsync } from 'fastify';
import { changeRoutes as routes } from '../../contract/routes/changes.js';
import { callerOf } from '../auth/authenticate.js';
import { addRoute } from '../lib/routes.js';
import { findProject } from '../projects/service.js';
import { createChangeSet, getApplySettings, getChangeSet, getJournal, listChangeSets, selectItems, startApply, startUndo, updateApplySettings } from './service.js';

/** Change sets: any member previews and reads the journal; applying and undoing follow the organization's setting. */
export const changeRoutes: FastifyPluginAsync = async (app) => {
  addRoute(app, routes.preview, async (request, reply) => {
    const set = await createChangeSet(app.db, app.config, callerOf(request), request.params.id, { pauseKeywords: request.body.pause_keywords, bids: request.body.bids, excludeSites: request.body.exclude_sites });
    reply.status(201);
    return set;
  });

  addRoute(app, routes.get, async (request) => getChangeSet(app.db, callerOf(request), request.params.id));

  addRoute(app, routes.select, async (request) => selectItems(app.db, callerOf(request), request.params.id, request.body.item_ids, request.body.selected));

  addRoute(app, routes.apply, async (request, reply) => {
    const set = await startApply(app.db, app.jobs, callerOf(request), request.params.id);
    reply.status(202);
    return set;
  });

  addRoute(app, routes.undo, async (request, reply) => {
    const set = await startUndo(app.db, app.jobs, callerOf(request), request.params.id, request.body.item_ids);
    reply.status(202);
    return set;
  });

  addRoute(app, routes.journal, async (request) => getJournal(app.db, callerOf(request), request.params.id));

  addRoute(app, routes.projectChangeSets, async (request) => {
    await findProject(app.db, callerOf(request).organizationId, request.params.id);
    return listChangeSets(app.db, callerOf(request), request.params.id);
  });

  addRoute(app, routes.settings, async (request) => getApplySettings(app.db, callerOf(request)));

  addRoute(app, routes.updateSettings, async (request) => updateApplySettings(app.db, callerOf(request), request.body));
};
