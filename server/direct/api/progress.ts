import { DIRECT_IMPORT_STAGES, type DirectImportStage, type DirectImportStageProgress } from '../../../contract/projects.js';
import type { DirectUnits } from './units.js';

/**
 * What an account read has done so far, stage by stage, with the API points spent: reported after
 * every answer that moves a stage, so a job can show it while a large account loads for minutes.
 */
export interface DirectFetchProgress {
  stages: DirectImportStageProgress[];
  units: DirectUnits;
}

export type DirectProgressListener = (progress: DirectFetchProgress) => void;

export interface ProgressTracker {
  update(stage: DirectImportStage, change: Partial<Omit<DirectImportStageProgress, 'stage'>>): void;
  /** Adds to a stage's counters (one more chunk answered, so many objects read). */
  advance(stage: DirectImportStage, done: number, items: number): void;
}

export function initialStages(): DirectImportStageProgress[] {
  return DIRECT_IMPORT_STAGES.map((stage) => ({ stage, status: 'pending', done: 0, total: null, items: 0 }));
}

/** A tracker that tells `listener` (when there is one) the whole picture after each change. */
export function createProgressTracker(listener: DirectProgressListener | undefined, units: () => DirectUnits): ProgressTracker {
  const stages = initialStages();
  const byName = new Map(stages.map((entry) => [entry.stage, entry]));
  const emit = () => listener?.({ stages: stages.map((entry) => ({ ...entry })), units: units() });
  return {
    update(stage, change) {
      Object.assign(byName.get(stage)!, change);
      emit();
    },
    advance(stage, done, items) {
      const entry = byName.get(stage)!;
      entry.done += done;
      entry.items += items;
      emit();
    },
  };
}
