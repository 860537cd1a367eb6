/**
 * The header notification when an analysis finishes or fails: exactly once per analysis on this
 * device, and only for runs the user saw running here (opening an old analysis is not news).
 *
 * After a start, `trackInBackground` keeps an eye on the run while the user is on other screens
 * (`resumeTracking` picks it up again after a reload); the progress screen reports the outcome itself
 * while it is open.
 */
import type { Analysis } from '@contract/analysis.js';
import { finishedStatuses } from '@contract/analysis.js';
import { ApiError } from '@/lib/api-client';
import { localJson } from '@/lib/storage';
import { onIdentityChange } from '@/app/session';
import { addNotification } from '@/app/notifications';
import { fetchAnalysis } from './api';

const STORAGE_KEY = 'analysis_outcomes';
/** Old entries are dropped past this many, so the list never grows without end. */
const MAX_REMEMBERED = 100;
export const BACKGROUND_POLL_MS = 5000;

type Mark = 'running' | 'reported';

function readMarks(): Record<string, Mark> {
  const marks = localJson.get<unknown>(STORAGE_KEY);
  return marks && typeof marks === 'object' ? (marks as Record<string, Mark>) : {};
}

/** Storage blocked: at worst a notification is missed. */
function writeMarks(marks: Record<string, Mark>): void {
  localJson.set(STORAGE_KEY, Object.fromEntries(Object.entries(marks).slice(-MAX_REMEMBERED)));
}

export const analysisTitles = {
  completed: 'Анализ завершён',
  failed: 'Анализ не выполнен',
};

export const REFUND_NOTE = 'Токены возвращены на баланс';

/** Message of a failed run; the server's own words already say the tokens went back when they do. */
export function failureMessage(analysis: Pick<Analysis, 'error'>): string {
  const error = analysis.error?.trim();
  if (!error) return `Не удалось выполнить анализ. ${REFUND_NOTE}`;
  return error.includes(REFUND_NOTE) ? error : `${error.replace(/\.$/, '')}. ${REFUND_NOTE}`;
}

/** Remembers that this run was seen unfinished here, so its outcome will be reported. */
export function markSeenRunning(analysisId: string): void {
  const marks = readMarks();
  if (marks[analysisId]) return;
  marks[analysisId] = 'running';
  writeMarks(marks);
}

/**
 * Adds the header notification for a finished run seen running here, once. Cancelled runs were the
 * user's own doing and get none. Answers whether a notification was added.
 */
export function reportOutcome(analysis: Analysis): boolean {
  if (!finishedStatuses.includes(analysis.status)) {
    markSeenRunning(analysis.id);
    return false;
  }
  const marks = readMarks();
  if (marks[analysis.id] !== 'running') return false;
  marks[analysis.id] = 'reported';
  writeMarks(marks);
  if (analysis.status === 'completed') {
    const score = analysis.score === null ? '' : ` Оценка аккаунта: ${Math.round(analysis.score)} из 100.`;
    addNotification({ title: analysisTitles.completed, message: `Результаты аудита готовы.${score}` });
    return true;
  }
  if (analysis.status === 'failed') {
    addNotification({ title: analysisTitles.failed, message: failureMessage(analysis) });
    return true;
  }
  return false;
}

const trackers = new Map<string, ReturnType<typeof setInterval>>();
const onScreen = new Set<string>();

/** The progress screen reports by itself while open; the background poll then stays quiet. */
export function setOnScreen(analysisId: string, visible: boolean): () => void {
  if (visible) onScreen.add(analysisId);
  else onScreen.delete(analysisId);
  return () => onScreen.delete(analysisId);
}

export function stopTracking(analysisId: string): void {
  const timer = trackers.get(analysisId);
  if (timer !== undefined) clearInterval(timer);
  trackers.delete(analysisId);
}

/** Polls a started run every few seconds, wherever the user is, until it ends and is reported. */
export function trackInBackground(analysisId: string): void {
  markSeenRunning(analysisId);
  if (trackers.has(analysisId)) return;
  const timer = setInterval(() => {
    if (onScreen.has(analysisId)) return;
    fetchAnalysis(analysisId)
      .then((analysis) => {
        reportOutcome(analysis);
        if (finishedStatuses.includes(analysis.status)) stopTracking(analysisId);
      })
      .catch((error: unknown) => {
        // Offline or a hiccup: the next tick tries again. Gone (404) or not ours any more: stop.
        if (error instanceof ApiError && (error.status === 404 || error.status === 401)) stopTracking(analysisId);
      });
  }, BACKGROUND_POLL_MS);
  trackers.set(analysisId, timer);
}

/**
 * After a reload (or a new tab) the in-memory trackers are gone while runs seen running here may still
 * be going: watch them again, so their outcome still reaches the header. Called on every entry to the
 * signed-in area; runs already watched are left as they are.
 */
export function resumeTracking(): void {
  for (const [analysisId, mark] of Object.entries(readMarks())) if (mark === 'running') trackInBackground(analysisId);
}

onIdentityChange(() => {
  for (const id of [...trackers.keys()]) stopTracking(id);
});
