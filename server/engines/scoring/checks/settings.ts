/**
 * The campaign-settings checks (issue 22): strategy, budget and placements, schedule, geography, bid
 * adjustments, states, autotargeting — one module each (settings-*.ts). They read what the Direct API
 * import gives (`Campaign.strategy`, `schedule`, `dailyStats`, `bidAdjustments`, group regions,
 * autotargeting categories); for a file import most of it is absent and they stay silent.
 * Run while the keywords' parsed phrases are still there (the competing-groups check reads them).
 */
import type { ScoringContext } from '../context.js';
import { runAutotargetingChecks } from './settings-autotargeting.js';
import { runBidAdjustmentChecks } from './settings-bid-adjustments.js';
import { runBudgetChecks } from './settings-budget.js';
import { runGeoChecks } from './settings-geo.js';
import { runScheduleChecks } from './settings-schedule.js';
import { runStateChecks } from './settings-state.js';
import { runStrategyChecks } from './settings-strategy.js';

export function runSettingsChecks(context: ScoringContext): void {
  runStrategyChecks(context);
  runBudgetChecks(context);
  runScheduleChecks(context);
  runGeoChecks(context);
  runBidAdjustmentChecks(context);
  runStateChecks(context);
  runAutotargetingChecks(context);
}
