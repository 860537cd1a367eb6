import type { LastAnalysis } from '../../src/contract/projects.js';
import type { DB } from '../db/database.js';

/**
 * The latest finished analysis of each project, for the project list's "last analysis score".
 *
 * TO BE FILLED BY THE ANALYSIS DOMAIN (issue 5): until analyses are stored there is nothing to show,
 * so every project answers `last_analysis: null`. Return a map keyed by project id with
 * `{ id, score, created_at }` (ISO date) of the newest completed analysis; projects without one are
 * simply absent from the map. Keep it one query for all the ids (the list calls it once per page).
 */
export async function lastAnalysisFor(_db: DB, _projectIds: readonly string[]): Promise<Map<string, LastAnalysis>> {
  return new Map();
}
