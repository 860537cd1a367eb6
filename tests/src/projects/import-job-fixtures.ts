import { DIRECT_IMPORT_STAGES, type DirectImportStageProgress, type ImportJob, type ImportPreview } from '@contract/projects.js';

export const jobId = '55555555-5555-4555-8555-555555555555';

type StageState = Partial<Omit<DirectImportStageProgress, 'stage'>>;

/** An import job as the API answers it; stages not named are pending. */
export function importJob(overrides: Partial<ImportJob> & { stageStates?: Partial<Record<DirectImportStageProgress['stage'], StageState>> } = {}): ImportJob {
  const { stageStates = {}, ...rest } = overrides;
  const stages = DIRECT_IMPORT_STAGES.map((stage) => ({ stage, status: 'pending' as const, done: 0, total: null, items: 0, ...stageStates[stage] }));
  return {
    id: jobId,
    source: 'direct_api',
    project_id: null,
    status: 'queued',
    progress: { stage: 'queued', done: 0, total: null, stages, units: { spent: 0, available: null, daily: null } },
    created_at: '2025-03-01T10:00:00.000Z',
    started_at: null,
    finished_at: null,
    ...rest,
  };
}

/** Midway: campaigns, groups and ads in, keywords loading, the reports still building. */
export function runningJob(overrides: Partial<ImportJob> = {}): ImportJob {
  const job = importJob({
    status: 'running',
    started_at: '2025-03-01T10:00:01.000Z',
    stageStates: {
      campaigns: { status: 'done', done: 2, total: 2, items: 2 },
      groups: { status: 'done', done: 2, total: 2, items: 3 },
      ads: { status: 'done', done: 2, total: 2, items: 4 },
      keywords: { status: 'running', done: 0, total: 2, items: 0 },
      statistics: { status: 'running', total: 1 },
      search_queries: { status: 'running', total: 1 },
    },
    ...overrides,
  });
  return { ...job, progress: { ...job.progress, stage: 'keywords', done: 0, total: 2, units: { spent: 40, available: 19_960, daily: 64_000 } } };
}

export function completedJob(preview: ImportPreview, overrides: Partial<ImportJob> = {}): ImportJob {
  const job = importJob({
    status: 'completed',
    started_at: '2025-03-01T10:00:01.000Z',
    finished_at: '2025-03-01T10:00:09.000Z',
    preview,
    stageStates: Object.fromEntries(DIRECT_IMPORT_STAGES.map((stage) => [stage, { status: 'done', done: 1, total: 1, items: 1 }])),
    ...overrides,
  });
  return { ...job, progress: { ...job.progress, stage: 'done' } };
}
