/**
 * The change-set job's names and limits, apart from the service so that the service, the job worker and
 * the recovery of lost jobs (recovery.ts) share them without importing one another in a circle.
 */
export const APPLY_CHANGES_QUEUE = 'changes.apply';
/** NOTIFY channel told a change set's id whenever its job ends. */
export const CHANGE_SETS_CHANNEL = 'change_sets_changed';
export const applyJobOptions = { retryLimit: 1, expireInSeconds: 30 * 60 } as const;
