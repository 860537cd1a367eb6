/** The calls of applying accepted suggestions through the Direct API, the journal and undo, and their queries. */
import { queryOptions } from '@tanstack/react-query';
import type { ChangeSet } from '@contract/changes.js';
import { changeRoutes } from '@contract/routes/changes.js';
import { callApi } from '@/lib/call-api';

export const changeKeys = {
  set: (id: string) => ['change-sets', id] as const,
  journal: (id: string) => ['change-sets', id, 'journal'] as const,
};

/** While the job runs, the set is asked for again this often (the job takes seconds). */
const RUNNING_POLL_MS = 1000;
const isRunning = (set: ChangeSet | undefined) => set?.status === 'applying' || set?.status === 'undoing';

export const changeSetQueryOptions = (id: string) =>
  queryOptions({
    queryKey: changeKeys.set(id),
    queryFn: ({ signal }) => callApi(changeRoutes.get, { params: { id }, signal }),
    refetchInterval: (query) => (isRunning(query.state.data) ? RUNNING_POLL_MS : false),
  });

export const journalQueryOptions = (id: string) =>
  queryOptions({
    queryKey: changeKeys.journal(id),
    queryFn: ({ signal }) => callApi(changeRoutes.journal, { params: { id }, signal }),
  });

export const applyChangeSet = (id: string) => callApi(changeRoutes.apply, { params: { id } });
export const selectChangeItems = (id: string, itemIds: string[], selected: boolean) => callApi(changeRoutes.select, { params: { id }, body: { item_ids: itemIds, selected } });
export const undoChanges = (id: string, itemIds?: string[]) => callApi(changeRoutes.undo, { params: { id }, body: itemIds ? { item_ids: itemIds } : {} });

export const projectChangeSetsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: ['change-sets', 'project', projectId] as const,
    queryFn: ({ signal }) => callApi(changeRoutes.projectChangeSets, { params: { id: projectId }, signal }),
  });
