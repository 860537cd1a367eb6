import { sql, type RawBuilder } from 'kysely';
import { moneyCauseKinds, type MoneyCause } from '../../contract/analysis-results.js';

const savingCauses = (Object.keys(moneyCauseKinds) as MoneyCause[]).filter((cause) => moneyCauseKinds[cause] === 'saving');

/**
 * The money lost per month of a stored summary (the headline «Теряете ≈ X ₽ в месяц»), as `readMoneyStory`
 * reads it: a summary stored before the lost/saving split has the saving causes inside its `perMonth`,
 * so they come off; null without a money story. `summary`: the summary column («summary», «a.summary»).
 */
export function moneyLostPerMonth(summary: string): RawBuilder<number | null> {
  const money = sql`${sql.ref(summary)} -> 'money'`;
  return sql<number | null>`CASE
    WHEN ${money} -> 'saving' IS NOT NULL THEN (${money} ->> 'perMonth')::float8
    ELSE round(((${money} ->> 'perMonth')::numeric - COALESCE((
      SELECT sum((cause ->> 'perMonth')::numeric) FROM jsonb_array_elements(${money} -> 'causes') AS cause
      WHERE cause ->> 'cause' IN (${sql.join(savingCauses)})), 0)), 2)::float8
  END`;
}
