import type { AnalysisSettings } from '../../../src/contract/analysis-results.js';
import type { CampaignData } from '../../../src/contract/campaigns.js';
import { runCampaignAnalysis } from '../../../server/analysis/scoring/run-analysis.js';
import { createLemmatizer, loadMorphology } from '../../../server/analysis/semantic/lemmatizer.js';
import { prepareAccount } from '../../../server/analysis/semantic/prepare.js';
import { parsePhrase, parseWords } from '../../../server/analysis/semantic/phrase.js';

export async function lemmatizer() {
  await loadMorphology();
  return createLemmatizer();
}

export async function analyse(data: CampaignData, settings: Partial<AnalysisSettings> = {}) {
  return runCampaignAnalysis(data, { settings });
}

export async function prepared(data: CampaignData) {
  return prepareAccount(data, await lemmatizer());
}

export async function phraseTools() {
  const l = await lemmatizer();
  return { phrase: (text: string) => parsePhrase(text, l), words: (text: string) => parseWords(text, l) };
}
