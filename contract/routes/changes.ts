/** Applying an audit's accepted suggestions through the Yandex Direct API: preview, apply, journal, undo. */
import { ErrorBodySchema, IdParamsSchema } from '../common.js';
import { ApplySettingsSchema, ChangeSetListSchema, ChangeSetSchema, JournalSchema, PreviewChangesSchema, SelectItemsSchema, UndoSchema } from '../changes.js';
import { defineRoute } from './route.js';

const tags = ['changes'];

export const changeRoutes = {
  preview: defineRoute({
    method: 'POST',
    path: '/api/v1/analyses/:id/change-sets',
    params: IdParamsSchema,
    body: PreviewChangesSchema,
    response: { 201: ChangeSetSchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema, 502: ErrorBodySchema },
    tags,
    summary: "The accepted suggestions (and, asked for, pauses of the keywords the audit says to stop, its bid changes under manual strategies and the network sites to exclude) as writes to the project's Direct account: each object read now, before → after, and the API points it will spend (nothing written yet)",
    auth: true,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/change-sets/:id',
    params: IdParamsSchema,
    response: { 200: ChangeSetSchema, 404: ErrorBodySchema },
    tags,
    summary: 'A change set with every item, its status and Yandex’s error where it failed',
    auth: true,
  }),
  select: defineRoute({
    method: 'PUT',
    path: '/api/v1/change-sets/:id/selection',
    params: IdParamsSchema,
    body: SelectItemsSchema,
    response: { 200: ChangeSetSchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: 'Keeps or leaves out items of a preview (a keyword to pause, a bid, a campaign’s sites…); only the kept ones are applied and counted in the points',
    auth: true,
  }),
  apply: defineRoute({
    method: 'POST',
    path: '/api/v1/change-sets/:id/apply',
    params: IdParamsSchema,
    response: { 202: ChangeSetSchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema },
    tags,
    summary: 'Applies the change set as a job, in batches within the API limits (who may: the organization’s setting)',
    auth: true,
  }),
  undo: defineRoute({
    method: 'POST',
    path: '/api/v1/change-sets/:id/undo',
    params: IdParamsSchema,
    body: UndoSchema,
    response: { 202: ChangeSetSchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 422: ErrorBodySchema, 503: ErrorBodySchema },
    tags,
    summary: 'Writes the replaced values back (all undoable items, or those named) within 30 days; an object changed on Yandex’s side since is refused, not overwritten',
    auth: true,
  }),
  journal: defineRoute({
    method: 'GET',
    path: '/api/v1/change-sets/:id/journal',
    params: IdParamsSchema,
    response: { 200: JournalSchema, 404: ErrorBodySchema },
    tags,
    summary: 'Every write of the change set (apply and undo) with the values it replaced, who and when',
    auth: true,
  }),
  projectChangeSets: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:id/change-sets',
    params: IdParamsSchema,
    response: { 200: ChangeSetListSchema },
    tags,
    summary: "The project's change sets, newest first",
    auth: true,
  }),
  settings: defineRoute({
    method: 'GET',
    path: '/api/v1/organizations/current/apply-settings',
    response: { 200: ApplySettingsSchema },
    tags,
    summary: 'Who may apply changes to ad accounts: the lowest role allowed',
    auth: true,
  }),
  updateSettings: defineRoute({
    method: 'PUT',
    path: '/api/v1/organizations/current/apply-settings',
    body: ApplySettingsSchema,
    response: { 200: ApplySettingsSchema, 403: ErrorBodySchema, 422: ErrorBodySchema },
    tags,
    summary: 'Sets who may apply changes (owner only)',
    auth: true,
  }),
};
