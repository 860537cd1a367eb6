/**
 * The one call a job makes: imported data in, scoring and semantic results out.
 *
 *   const { scoring, semantic, money } = await runCampaignAnalysis(data, { settings, onProgress });
 *
 * Pure: no HTTP, no database; the only I/O is reading az's dictionaries from node_modules once per
 * process (or worker thread). Run it in a pool thread (`analysisPool().run(new URL('…/run-analysis.js', …),
 * 'runCampaignAnalysis', [data, { settings }])`); `onProgress` cannot cross a thread, so a job that
 * needs live progress calls it in a worker of its own and posts the progress from there.
 */
import { resolveAnalysisSettings, type AnalysisProgress, type AnalysisSettings, type MoneyStory, type ScoringResult, type SemanticResult } from '../../../contract/analysis-results.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { runSemanticEngine } from '../semantic/engine.js';
import { createLemmatizer, loadMorphology } from '../semantic/lemmatizer.js';
import { prepareAccount, releaseSemanticInputs } from '../semantic/prepare.js';
import { runScoring } from './engine.js';
import { moneyStory, scoreBesideLoss } from './money-story.js';

export interface RunAnalysisOptions {
  /** Project overrides; missing keys take `defaultAnalysisSettings`. */
  settings?: Partial<AnalysisSettings>;
  /** Only these campaigns (indexes into `data.campaigns`, kept in every result reference); all when missing. */
  campaignIndexes?: number[];
  onProgress?: (progress: AnalysisProgress) => void;
}

export interface AnalysisOutput {
  scoring: ScoringResult;
  semantic: SemanticResult;
  /** «Теряете ≈ X ₽ в месяц», the money to save and their causes, from both results (money-story.ts); the account's score is capped by it. */
  money: MoneyStory;
}

export async function runCampaignAnalysis(data: CampaignData, options: RunAnalysisOptions = {}): Promise<AnalysisOutput> {
  const settings = resolveAnalysisSettings(options.settings);
  const onProgress = options.onProgress;
  onProgress?.({ stage: 'prepare', done: 0, total: 1 });
  await loadMorphology();
  const lemmatizer = createLemmatizer();
  const account = prepareAccount(data, lemmatizer, (done, total) => onProgress?.({ stage: 'lemmatize', done, total }), options.campaignIndexes);
  const { result: semantic, nonTargetRows } = runSemanticEngine(account, settings, onProgress);
  releaseSemanticInputs(account);
  const scoring = runScoring(account, semantic, settings, onProgress);
  const money = moneyStory({ account, scoring, nonTargetRows });
  scoring.account.score = scoreBesideLoss(scoring.account.score, money);
  return { scoring, semantic, money };
}
