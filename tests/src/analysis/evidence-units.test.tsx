/**
 * Issue 28, acceptance: every evidence unit of every check, rendered on the results screen, against the
 * engine's value on a known account (tests/fixtures/analysis/flower-shop.ts). The engine runs here for
 * real and its findings and summary are served as the results API would; the screen's texts are read
 * back into numbers and compared with the engine's (a share shown as percent, roubles, counts).
 * Before the fix the CTR read «300 % (порог 400 %)» and the relevance «4 000 % (порог 5 000 %)».
 */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditResult } from '@contract/analysis.js';
import { share, type Evidence, type Finding } from '@contract/analysis-results.js';
import { formatEvidenceValue } from '@contract/evidence-format.js';
import { buildResultsSummary } from '../../../server/analysis/result-rows.js';
import { runCampaignAnalysis } from '../../../server/engines/scoring/run-analysis.js';
import { flowerShop, flowerShopSettings } from '../../fixtures/analysis/flower-shop.js';
import { renderAt } from '../auth/render-app';
import { useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { analysisId, fakePagedApi, projectId } from './fixtures';

useTestServer();

const audit: AuditResult = await runCampaignAnalysis(flowerShop(), { settings: flowerShopSettings });
/** The checks that fired on the account, each shown through the screen's own check filter (the list is virtual: a few cards at a time). */
const checkIds = [...new Set(audit.scoring.findings.map((finding) => finding.checkId))].sort();
const resultsOf = (checkId: string) => `/projects/${projectId}/analysis/${analysisId}/results?check=${encodeURIComponent(JSON.stringify([checkId]))}`;

beforeEach(() => {
  signInOwner(...fakePagedApi({ findings: audit.scoring.findings, summary: buildResultsSummary(audit) }).handlers);
});

/** A Russian number as the screen writes it («1 500», «2,5») back into a number. */
const numberOf = (text: string) => Number(text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.'));

/** The unit words each unit is written with, after the number. */
const unitPattern: Record<NonNullable<Evidence['unit']>, RegExp> = {
  share: /^([\d\s\u00a0\u202f,]+) %$/,
  rub: /^([\d\s\u00a0\u202f,]+) ₽$/,
  chars: /^([\d\s\u00a0\u202f]+) символ(?:|а|ов)$/,
  clicks: /^([\d\s\u00a0\u202f]+) клик(?:|а|ов)$/,
  impressions: /^([\d\s\u00a0\u202f]+) показ(?:|а|ов)$/,
  conversions: /^([\d\s\u00a0\u202f]+) конверси(?:я|и|й)$/,
  count: /^([\d\s\u00a0\u202f]+)$/,
  ratio: /^× ([\d\s\u00a0\u202f,]+)$/,
};

/** What the engine's number is in the unit the screen writes: a share as percent, roubles whole. */
function shown(unit: Evidence['unit'], value: number): number {
  if (unit === 'share') return Math.round(value * 100 * 100) / 100;
  if (unit === 'rub') return Math.round(value);
  return value;
}

/** Reads one rendered value back and compares it with the engine's. */
function expectRendered(text: string, unit: Evidence['unit'], value: number | string, where: string) {
  if (typeof value === 'string') {
    expect(text, where).toBe(value);
    return;
  }
  const match = unitPattern[unit ?? 'count'].exec(text.trim());
  expect(match, `${where}: «${text}» in ${unit ?? 'no unit'}`).not.toBeNull();
  expect(numberOf(match![1]!), `${where}: «${text}»`).toBe(shown(unit, value));
}

const cardOf = (finding: Finding) => screen.getAllByTestId('finding').find((card) => card.textContent?.includes(finding.explanation));

describe('every evidence number on the results screen is the engine\'s, in its own unit', () => {
  it('the account fires checks with every unit the engines send', () => {
    const units = new Set(audit.scoring.findings.flatMap((finding) => [...finding.evidence, ...(finding.items ?? []).flatMap((item) => item.evidence)].filter((item) => typeof item.value === 'number').map((item) => item.unit ?? 'count')));
    expect(units).toEqual(new Set(['share', 'rub', 'chars', 'clicks', 'impressions', 'conversions', 'count']));
    expect(checkIds.length).toBeGreaterThanOrEqual(15);
  });

  it.each(checkIds)('%s: each evidence value and threshold, and its examples\' evidence, as the engine computed them', async (checkId) => {
    await renderAt(resultsOf(checkId));
    const findings = audit.scoring.findings.filter((finding) => finding.checkId === checkId);
    await screen.findAllByTestId('finding');
    for (const finding of findings) {
      const card = cardOf(finding);
      expect(card, finding.id).toBeDefined();
      for (const evidence of finding.evidence) {
        const fact = within(card!).getAllByText(evidence.label, { selector: 'dt' })[0]!.parentElement!;
        const [valueText, thresholdText] = (fact.querySelector('dd')!.textContent ?? '').split(' (порог ');
        expectRendered(valueText!, evidence.unit, evidence.value, `«${evidence.label}»`);
        if (evidence.threshold !== undefined) expectRendered(thresholdText!.replace(/\)$/, ''), evidence.unit, evidence.threshold, `«${evidence.label}», порог`);
        else expect(thresholdText).toBeUndefined();
      }
      // An aggregated finding's examples: «label: value, label: value» after the place.
      for (const item of finding.count ? (finding.items ?? []) : []) {
        const row = within(card!).getAllByTestId('finding-item').find((element) => element.textContent?.includes(item.target.label ?? ''))!;
        const facts = row.querySelector('.finding-item__facts')!.textContent!;
        for (const evidence of item.evidence) {
          const text = new RegExp(`${evidence.label}: ([^,]+)`).exec(facts)?.[1];
          expect(text, `item «${evidence.label}»`).toBeDefined();
          expectRendered(text!, evidence.unit, evidence.value, `item «${evidence.label}»`);
        }
      }
    }
  });

  it.each([
    // «розы»: 30 clicks of 1 000 impressions on search, threshold 4 % (the project's lowSearchCtr 0.04).
    ['stats.low_ctr', 'CTR на поиске', '3 % (порог 4 %)'],
    // «Букеты цветов» in the networks: 600 of 20 000.
    ['stats.network_ctr_suspicious', 'CTR в сетях', '3 % (порог 2 %)'],
    // Group «Розы»: 2 of its 5 keyword lemmas in the ads, threshold 50 %.
    ['group.low_relevance', 'Релевантность', '40 % (порог 50 %)'],
    ['stats.network_sites', 'Подозрительный CTR от', '2 %'],
  ])('%s: «%s» reads %s, the account\'s own share, not ×100', async (checkId, label, text) => {
    await renderAt(resultsOf(checkId));
    const card = (await screen.findAllByTestId('finding'))[0]!;
    expect(within(card).getByText(label, { selector: 'dt' }).parentElement!.querySelector('dd')).toHaveTextContent(text);
  });
});

describe('evidence stored before shares had a unit of their own', () => {
  it('reads an older analysis\'s «percent» (already percent points) as it is, a share ×100', () => {
    expect(formatEvidenceValue({ label: 'CTR на поиске', value: 3, threshold: 4, unit: 'percent' })).toBe('3 %');
    expect(formatEvidenceValue({ label: 'CTR на поиске', value: 3, threshold: 4, unit: 'percent' }, 'threshold')).toBe('4 %');
    expect(formatEvidenceValue({ label: 'CTR на поиске', value: share(0.0312), unit: 'share' })).toBe('3,12 %');
  });
});
