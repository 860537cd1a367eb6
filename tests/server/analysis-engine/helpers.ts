import type { AnalysisSettings } from '../../../contract/analysis-results.js';
import type { CampaignData } from '../../../contract/campaigns.js';
import { runCampaignAnalysis } from '../../../server/engines/scoring/run-analysis.js';
import { createLemmatizer, loadMorphology } from '../../../server/engines/semantic/lemmatizer.js';
import { prepareAccount } from '../../../server/engines/semantic/prepare.js';
import { parsePhrase, parseWords } from '../../../server/engines/semantic/phrase.js';

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
