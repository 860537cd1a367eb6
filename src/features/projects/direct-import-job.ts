/**
 * The id of a running Direct API import job, kept in sessionStorage per screen: leaving the screen (or
 * reloading the tab) and coming back shows the same job's progress instead of losing it.
 */
import { tabValue } from '@/lib/storage';

/** Step 2 of the creation form. */
export const CREATE_DIRECT_JOB_KEY = 'project_create_direct_job';
/** «Обновить кампании» of one project. */
export const reimportDirectJobKey = (projectId: string) => `project_reimport_direct_job:${projectId}`;

// Storage blocked: the job still runs, it just is not found again after leaving the screen.
export const readDirectJobId = (key: string): string | null => tabValue.get(key);
export const saveDirectJobId = (key: string, jobId: string | null): void => tabValue.set(key, jobId);
