/**
 * Bench of «Что изменилось» (server/monitoring/audit-changes.ts) at the analysis bench's 100 000 keywords:
 * the account audited, then changed as a month of work changes it (a keyword of every group gone, one
 * new with spend and no conversion put first in every tenth group so the index keys move, the first ad of
 * every group given sitelinks, statistics of a fifth of the keywords moved), audited again; both results
 * stored as the worker stores them (compact refs, COPY), then the two compared with `readAuditChanges`
 * (one warm-up, best of three). Prints the findings of each audit, the changes per status and the time.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { AuditResult } from '../contract/analysis.js';
import type { CampaignData } from '../contract/campaigns.js';
import { resultRowBatches } from '../server/analysis/result-rows.js';
import { copyRowBatch } from '../server/analysis/row-writer.js';
import { summarizeAudit } from '../server/analysis/run-audit.js';
import { openDatabase } from '../server/db/connect.js';
import { poolOf, type DB } from '../server/db/database.js';
import { runCampaignAnalysis } from '../server/engines/scoring/run-analysis.js';
import { readAuditChanges } from '../server/monitoring/audit-changes.js';
import { generateAccount } from './analysis.js';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The account a month later (see the file's comment); deterministic. */
function changedAccount(data: CampaignData): CampaignData {
  const changed = structuredClone(data);
  changed.campaigns.forEach((campaign, c) =>
    campaign.groups.forEach((group, g) => {
      group.keywords.splice(3, 1);
      group.keywords.forEach((keyword, k) => {
        if ((c + g + k) % 5 === 0 && keyword.stats) keyword.stats = { ...keyword.stats, cost: Math.round(keyword.stats.cost * 1.6), clicks: keyword.stats.clicks + 5 };
      });
      if (g % 10 === 0) group.keywords.unshift({ phrase: `${group.keywords[0]!.phrase} оптом`, negativeWords: [], matchType: 'broad', stats: { impressions: 900, clicks: 45, cost: 5200, conversions: 0 } });
      const first = group.ads[0];
      if (first) first.sitelinks = [{ title: 'Каталог', description: 'Все модели в наличии' }];
    }),
  );
  return changed;
}

async function audit(data: CampaignData): Promise<AuditResult> {
  const output = await runCampaignAnalysis(data);
  return { scoring: output.scoring, semantic: output.semantic, money: output.money };
}

/** A completed analysis with the result's rows, written as the worker's saving does. */
async function storeCompleted(db: DB, projectId: string, organizationId: string, result: AuditResult, createdAt: Date): Promise<string> {
  const id = randomUUID();
  const summary = summarizeAudit(result);
  await sql`INSERT INTO analyses (id, organization_id, project_id, status, options, cost, idempotency_key, summary, score, created_at)
            VALUES (${id}, ${organizationId}, ${projectId}, 'completed', ${JSON.stringify({ campaign_ids: [], settings: {}, target_cpa: null })}::jsonb, 0, ${randomUUID()},
                    ${JSON.stringify(summary)}::jsonb, ${summary.account_score}, ${createdAt})`.execute(db);
  const client = await poolOf(db).connect();
  try {
    await client.query('BEGIN');
    for (const batch of resultRowBatches(result, undefined, { encoding: { kind: 'copy', analysisId: id }, compactRefs: true })) await copyRowBatch(client, batch);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  return id;
}

export async function run(): Promise<void> {
  const data = generateAccount();
  const started = performance.now();
  const [before, after] = [await audit(data), await audit(changedAccount(data))];
  console.log(`engines, two audits: ${seconds(performance.now() - started)} (100 000 keywords)`);
  console.log(`findings: ${before.scoring.findings.length} before, ${after.scoring.findings.length} after`);

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'reklama-bench-changes-'));
  await chmod(dataDir, 0o755);
  const database = await openDatabase({ dataDir });
  try {
    const db = database.db;
    const org = await db.insertInto('organizations').values({ name: 'Бенчмарк', invitation_code: randomBytes(5).toString('hex').toUpperCase() }).returning('id').executeTakeFirstOrThrow();
    const project = await db
      .insertInto('projects')
      .values({ organization_id: org.id, name: 'Бенч', name_key: 'бенч', site_url: 'https://example.ru', platform: 'yandex_direct' } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const fromId = await storeCompleted(db, project.id, org.id, before, new Date(Date.now() - 86_400_000));
    const toId = await storeCompleted(db, project.id, org.id, after, new Date());
    await sql`VACUUM (ANALYZE) analysis_findings, analysis_entity_names`.execute(db);

    const times: number[] = [];
    let counts: Record<string, number> = {};
    for (let round = 0; round < 4; round++) {
      const roundStarted = performance.now();
      const result = await readAuditChanges(db, { projectId: project.id, fromAnalysisId: fromId, toAnalysisId: toId });
      if (round > 0) times.push(performance.now() - roundStarted);
      counts = result.counts;
    }
    console.log(`changes: ${Object.entries(counts).map(([status, n]) => `${status} ${n}`).join(', ')}`);
    console.log(`readAuditChanges: best ${seconds(Math.min(...times))}, worst ${seconds(Math.max(...times))} of ${times.length} (after one warm-up)`);
  } finally {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
