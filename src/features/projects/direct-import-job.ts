/**
 * The id of a running Direct API import job, kept in sessionStorage per screen: leaving the screen (or
 * reloading the tab) and coming back shows the same job's progress instead of losing it.
 */

/** Step 2 of the creation form. */
export const CREATE_DIRECT_JOB_KEY = 'project_create_direct_job';
/** «Обновить кампании» of one project. */
export const reimportDirectJobKey = (projectId: string) => `project_reimport_direct_job:${projectId}`;

export function readDirectJobId(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function saveDirectJobId(key: string, jobId: string | null): void {
  try {
    if (jobId === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, jobId);
  } catch {
    // Storage blocked: the job still runs, it just is not found again after leaving the screen.
  }
}
