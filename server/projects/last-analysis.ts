import { sql } from 'kysely';
import type { LastAnalysis } from '../../contract/projects.js';
import type { DB } from '../db/database.js';
import { moneyLostPerMonth } from '../analysis/money-sql.js';

/**
 * The latest completed analysis of each project, for the project list's "last analysis score" and its
 * money figure «Теряете ≈ X ₽ в месяц» (filled by the analysis domain). One query for all the ids: the newest completed row per project.
 * Projects without one are absent from the map.
 */
export async function lastAnalysisFor(db: DB, projectIds: readonly string[]): Promise<Map<string, LastAnalysis>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('analyses')
    .select(['id', 'project_id', 'score', 'created_at', moneyLostPerMonth('summary').as('money_per_month')])
    .distinctOn('project_id')
    .where('project_id', 'in', [...projectIds])
    .where('status', '=', 'completed')
    .orderBy('project_id')
    .orderBy(sql`created_at DESC`)
    .execute();
  return new Map(rows.map((row) => [row.project_id, { id: row.id, score: row.score, created_at: row.created_at.toISOString(), money_per_month: row.money_per_month }]));
}
