/**
 * Results of a big account, read the ways the results screen and the export read them, on the real
 * server (bench/results-at-scale-server.ts, its own process, so its peak RSS is its own): an account of
 * BENCH_SCALE_KEYWORDS keywords (default 1 000 000: 100 campaigns of 500 groups of 20 keywords, 2 ads a
 * group; bench/analysis.ts's vocabulary) stored as campaign rows, and a completed analysis of it written
 * through the worker's row path (`resultRowBatches` → COPY) with suggestions shaped like the engines'
 * at that size (750 000, as the engines make at 1 000 000 keywords): 5 negatives a group (250 000, by
 * category and status), a headline fix for every ad, 6 cross-minus fixes a group; 2 findings a group
 * (100 000, half with 5 items); the non-target queries report (one block a negative) in the summary.
 * Then, timed:
 *
 * - suggestions and findings pages filtered by each filter of the results screen (median of 3), with
 *   their count (capped at 10 000: «over 10,000»);
 * - `GET /results` (summary, first findings page, decision counts) before and after the bulk accept;
 * - bulk accept of every negative (one request), then the decision-filtered pages;
 * - the CSV export: the route (campaign by campaign) and, in the same server process and the same run,
 *   the export as it was (bench/export-whole.ts: every accepted document and every campaign whole in
 *   memory), each with the server's peak RSS over its own run, and the two files' SHA-256 compared.
 *
 * `BENCH_SCALE_EXPLAIN=1` also prints the plan (EXPLAIN ANALYZE) of each filtered page and its count.
 * Builds no file; ~3 GB of memory for the generator at 1 000 000 keywords.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { AuditResult } from '../contract/analysis.js';
import type { AdFieldFixSuggestion, CrossMinusSuggestion, EntityRef, Finding, NegativeCategory, NegativeKeywordSuggestion, NonTargetQueries, Severity } from '../contract/analysis-results.js';
import type { CampaignData } from '../contract/campaigns.js';
import { buildResultsSummary, resultRowBatches } from '../server/analysis/result-rows.js';
import { copyRowBatch } from '../server/analysis/row-writer.js';
import { generateAccount } from './analysis.js';
import { api, startServer, type ServerHandle } from './end-to-end.js';

const KEYWORDS_PER_GROUP = 20;
const GROUPS_PER_CAMPAIGN = 500;
const NEGATIVES_PER_GROUP = 5;
const CROSS_MINUS_PER_GROUP = 6;
const FINDING_ITEMS = 5;
const severities: Severity[] = ['high', 'medium', 'low'];
const categories: NegativeCategory[] = ['query', 'query', 'query', 'free', 'informational', 'jobs', 'used', 'foreign_geo', 'competitors', 'ambiguous'];

/**
 * `BENCH_SCALE_QUERY_BLOCKS=0` leaves the non-target queries report out (the code before migration 0107
 * counted it in time quadratic in the accepted negatives: hours at this size), `BENCH_SCALE_EXPORT=0`
 * the exports: for a baseline run of the older code.
 */
const withQueryBlocks = process.env.BENCH_SCALE_QUERY_BLOCKS !== '0';
const withExport = process.env.BENCH_SCALE_EXPORT !== '0';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const count = (n: number) => n.toLocaleString('en-US');

/** The engines' suggestions for the account, in the shapes they have (`resultRowBatches` reads only these). */
function suggestionsOf(data: CampaignData): AuditResult {
  const adFixes: AdFieldFixSuggestion[] = [];
  const crossMinus: CrossMinusSuggestion[] = [];
  const negatives: NegativeKeywordSuggestion[] = [];
  const findings: Finding[] = [];
  const blockedBy: NonTargetQueries['blockedBy'] = [];
  let n = 0;
  data.campaigns.forEach((campaign, c) => {
    campaign.groups.forEach((group, g) => {
      const groupRef: EntityRef = { level: 'group', key: `c${c}g${g}`, campaignIndex: c, groupIndex: g, campaignName: campaign.name, groupName: group.name };
      group.ads.forEach((ad, a) => {
        const before = ad.headlines[0] ?? '';
        adFixes.push({
          id: `ad:c${c}g${g}a${a}:headline:0`,
          kind: 'ad_field',
          target: { ...groupRef, level: 'ad', key: `c${c}g${g}a${a}`, adIndex: a, label: before },
          field: 'headline',
          index: 0,
          before,
          after: before.slice(0, 30),
          reason: 'Заголовок 1 длиннее 56 символов: обрезается в выдаче',
        });
      });
      const keyword = group.keywords[0]!;
      // Two findings a group (100 000 at 1 000 000 keywords): an aggregated one with its items, and one about the group.
      const items = group.keywords.slice(0, FINDING_ITEMS).map((kw, k) => ({
        target: { ...groupRef, level: 'keyword' as const, key: `c${c}g${g}k${k}`, keywordIndex: k, label: kw.phrase },
        evidence: [{ label: 'Расход без конверсий', value: 100 + k, unit: 'rub' as const }],
        moneyPerMonth: 100 + k,
      }));
      findings.push({
        id: `kw_no_conv:c${c}g${g}`,
        checkId: 'keywords_without_conversions',
        family: 'statistics',
        severity: severities[g % 3]!,
        weight: 5,
        title: 'Фразы без конверсий',
        explanation: 'Фразы тратят бюджет без конверсий',
        fix: 'Отключите фразы или снизьте ставки',
        target: groupRef,
        evidence: [],
        moneyPerMonth: 510 + ((c * GROUPS_PER_CAMPAIGN + g) % 89),
        count: items.length,
        items,
      });
      findings.push({
        id: `group_size:c${c}g${g}`,
        checkId: 'group_too_many_keywords',
        family: 'keywords',
        severity: 'low',
        weight: 2,
        title: `Много фраз в группе «${group.name}»`,
        explanation: 'Группа с десятками фраз',
        fix: 'Разделите группу',
        target: groupRef,
        evidence: [],
      });
      for (let k = 0; k < CROSS_MINUS_PER_GROUP && k + 1 < group.keywords.length; k++) {
        const narrower = group.keywords[k + 1]!;
        crossMinus.push({
          id: `xm:kw:c${c}g${g}k${k}`,
          kind: 'cross_minus',
          level: 'keyword',
          target: { ...groupRef, level: 'keyword', key: `c${c}g${g}k${k}`, keywordIndex: k, label: group.keywords[k]!.phrase },
          before: group.keywords[k]!.phrase,
          after: `${group.keywords[k]!.phrase} -купить`,
          add: ['купить'],
          because: [{ ...groupRef, level: 'keyword', key: `c${c}g${g}k${k + 1}`, keywordIndex: k + 1, label: narrower.phrase }],
          remove: [],
          reason: 'Более точная фраза группы перехватывает показы',
        });
      }
      for (let k = 0; k < NEGATIVES_PER_GROUP; k++, n++) {
        const category = categories[n % categories.length]!;
        const text = `${keyword.phrase.split(' ')[0]} минус${n}`;
        const queries = [0, 1, 2].map((q) => ({ query: `${text} запрос ${q}`, clicks: 3 + q, cost: 120 + q * 10, conversions: 0 }));
        negatives.push({
          id: `neg:c${c}g${g}|${text}`,
          kind: 'negative_keyword',
          level: 'group',
          target: groupRef,
          text,
          category,
          status: category === 'ambiguous' ? 'check_by_hand' : 'ready',
          source: 'queries',
          reason: 'Запросы без конверсий',
          queries,
          clicks: 12,
          cost: 390 + (n % 97),
          costPerMonth: 390 + (n % 97),
          evidence: [{ label: 'Расход без конверсий', value: 390 + (n % 97), unit: 'rub' }],
        });
        // The non-target queries report: the rows each negative blocks (one entry a negative, as at this size).
        if (withQueryBlocks) blockedBy.push({ suggestionIds: [`neg:c${c}g${g}|${text}`], queries: 3, clicks: 12, cost: 390 + (n % 97) });
      }
    });
  });
  const scoring = { findings, checks: [], notices: [], suggestions: adFixes, campaigns: [], groups: [], ads: [], keywords: [], keywordVerdicts: [] };
  const cost = blockedBy.reduce((sum, block) => sum + block.cost, 0);
  const nonTargetQueries: NonTargetQueries = { queries: blockedBy.length * 3, clicks: blockedBy.length * 12, cost, costPerMonth: cost, period: null, periodDays: 30, monthFactor: 1, blockedBy };
  const semantic = { crossMinus, negatives, clusters: [], duplicates: [], intersections: [], relevance: [], collectData: [], droppedNegatives: [], notices: [], nonTargetQueries };
  return { scoring, semantic } as unknown as AuditResult;
}

/** The project, its campaign rows and a completed analysis with the suggestions' rows, written straight into the database. */
async function storeAnalysis(client: pg.Client, data: CampaignData): Promise<{ analysisId: string; suggestions: number }> {
  const { rows: [member] } = await client.query<{ user_id: string; organization_id: string }>('SELECT user_id, organization_id FROM memberships LIMIT 1');
  const { rows: [project] } = await client.query<{ id: string }>(
    `INSERT INTO projects (organization_id, name, name_key, site_url, platform, author_id) VALUES ($1, 'Бенч', 'бенч', 'bench.example.ru', 'yandex_direct', $2) RETURNING id`,
    [member!.organization_id, member!.user_id],
  );
  const { rows: [imported] } = await client.query<{ id: string }>(`INSERT INTO project_imports (project_id, source, mode, counts) VALUES ($1, 'files', 'create', '{}') RETURNING id`, [project!.id]);
  const campaignIds: string[] = [];
  for (let position = 0; position < data.campaigns.length; position++) {
    const campaign = data.campaigns[position]!;
    const keywords = campaign.groups.reduce((sum, group) => sum + group.keywords.length, 0);
    const ads = campaign.groups.reduce((sum, group) => sum + group.ads.length, 0);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO campaigns (project_id, import_id, position, name, groups_count, ads_count, keywords_count, data) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [project!.id, imported!.id, position, campaign.name, campaign.groups.length, ads, keywords, JSON.stringify(campaign)],
    );
    campaignIds.push(rows[0]!.id);
  }
  const options = { campaign_ids: campaignIds, settings: {}, target_cpa: null, region: null };
  const { rows: [analysis] } = await client.query<{ id: string }>(
    `INSERT INTO analyses (organization_id, project_id, created_by, status, options, cost, idempotency_key) VALUES ($1, $2, $3, 'running', $4, 0, 'bench-scale') RETURNING id`,
    [member!.organization_id, project!.id, member!.user_id, JSON.stringify(options)],
  );
  const analysisId = analysis!.id;
  const result = suggestionsOf(data);
  const suggestions = result.scoring.suggestions.length + result.semantic.crossMinus.length + result.semantic.negatives.length;
  await client.query('BEGIN');
  for (const batch of resultRowBatches(result, undefined, { encoding: { kind: 'copy', analysisId } })) await copyRowBatch(client, batch);
  await client.query(`UPDATE analyses SET status = 'completed', stage = NULL, finished_at = now(), report = $2 WHERE id = $1`, [analysisId, JSON.stringify(buildResultsSummary(result))]);
  await client.query('COMMIT');
  return { analysisId, suggestions };
}

/**
 * `BENCH_SCALE_REUSE=1` with `BENCH_DATABASE_URL` (a PostgreSQL of one's own, bench-app.ts): the analysis
 * an earlier run stored there is measured again instead of building the account anew (minutes and ~3 GB
 * at 1 000 000 keywords): it is moved to this run's user and its decisions are cleared, as the writes of
 * decisions clear them, so every run starts from the same undecided analysis.
 */
const reuse = process.env.BENCH_SCALE_REUSE === '1';

async function keptAnalysis(client: pg.Client): Promise<{ analysisId: string; rareGroupName: string; suggestions: number } | null> {
  const { rows: [analysis] } = await client.query<{ id: string; project_id: string }>(`SELECT id, project_id FROM analyses WHERE idempotency_key = 'bench-scale' AND status = 'completed' ORDER BY created_at DESC LIMIT 1`);
  if (!analysis) return null;
  const { rows: [member] } = await client.query<{ organization_id: string }>('SELECT organization_id FROM memberships ORDER BY created_at DESC LIMIT 1');
  await client.query('UPDATE projects SET organization_id = $2 WHERE id = $1', [analysis.project_id, member!.organization_id]);
  await client.query('UPDATE analyses SET organization_id = $2 WHERE id = $1', [analysis.id, member!.organization_id]);
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM analyses WHERE id = $1 FOR NO KEY UPDATE', [analysis.id]);
  await client.query('DELETE FROM analysis_decisions WHERE analysis_id = $1', [analysis.id]);
  await resetDecisionState(client, analysis.id);
  await client.query('COMMIT');
  await client.query('VACUUM (ANALYZE) analysis_decisions');
  const { rows: [group] } = await client.query<{ name: string }>(`SELECT data -> 'groups' -> 7 ->> 'name' AS name FROM campaigns WHERE project_id = $1 AND position = 0`, [analysis.project_id]);
  const { rows: [suggestions] } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM analysis_suggestions WHERE analysis_id = $1', [analysis.id]);
  return { analysisId: analysis.id, rareGroupName: group!.name, suggestions: suggestions!.n };
}

/** The analysis's stored decision state as a fresh one has it (no decisions). */
async function resetDecisionState(client: pg.Client, analysisId: string): Promise<void> {
  await client.query('UPDATE analyses SET decision_counts = NULL, decided_positions = NULL WHERE id = $1', [analysisId]);
  // Migration 0175's column, where this code's schema has it (a baseline run of older code may not).
  const { rows } = await client.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'analyses' AND column_name = 'accepted_positions'`);
  if (rows.length > 0) await client.query('UPDATE analyses SET accepted_positions = NULL WHERE id = $1', [analysisId]);
}

const explain = process.env.BENCH_SCALE_EXPLAIN === '1';

/** The plans of a suggestions page and its count (results-pages.ts's statements, for one value per filter). */
async function explainPage(client: pg.Client, analysisId: string, query: URLSearchParams): Promise<void> {
  const conditions = ['s.analysis_id = $1'];
  const values: unknown[] = [analysisId];
  const column: Record<string, string> = { kind: 'kind', category: 'category', status: 'status', campaign: 'campaign_key', group: 'group_key' };
  const decision = 'SELECT 1 FROM analysis_decisions x WHERE x.analysis_id = s.analysis_id AND x.suggestion_id = s.id';
  const negativesOnly = query.has('category') || query.has('status');
  // The decision filters read the bits the analysis keeps (results-pages.ts), when known: the decided
  // positions for «undecided» (0112), and with the accepted positions (0175, where the schema has them) every one.
  const { rows: [row] } = await client.query<{ decided_positions: Buffer | null; accepted_positions?: Buffer | null }>('SELECT * FROM analyses WHERE id = $1', [analysisId]);
  const decidedBits = row?.decided_positions ?? null;
  const acceptedBits = row?.accepted_positions ?? null;
  let countOrder = '';
  for (const [name, value] of query) {
    if (name === 'kind' && negativesOnly && value === 'negative_keyword') continue;
    if (column[name]) {
      values.push(value);
      conditions.push(`s.${column[name]} = $${values.length}`);
    } else if (name === 'text') {
      values.push(`%${value}%`);
      conditions.push(`s.search LIKE $${values.length}`);
    } else if (name === 'decision' && decidedBits && (value === 'undecided' || acceptedBits)) {
      const bit = (bits: Buffer | null) => {
        values.push(bits);
        return `get_bit($${values.length}::bytea, s.position)`;
      };
      conditions.push(value === 'undecided' ? `${bit(decidedBits)} <> 1` : value === 'accepted' ? `${bit(acceptedBits)} <> 0` : `${bit(decidedBits)} <> 0 AND ${bit(acceptedBits)} <> 1`);
      if (value !== 'undecided') countOrder = ' ORDER BY s.cost_per_month DESC, s.position';
    } else if (name === 'decision') conditions.push(value === 'undecided' ? `NOT EXISTS (${decision})` : `EXISTS (${decision} AND x.decision = '${value}')`);
  }
  const where = conditions.join(' AND ');
  for (const statement of [
    `SELECT s.cost_per_month, s.position FROM analysis_suggestions s WHERE ${where} ORDER BY s.cost_per_month DESC, s.position LIMIT 50 OFFSET 50`,
    `SELECT count(*)::int AS total FROM (SELECT 1 FROM analysis_suggestions s WHERE ${where}${countOrder} LIMIT 10001) matched`,
  ]) {
    const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement}`, values);
    console.log(`    ${statement.slice(0, 60)}… ${query}\n${plan.rows.map((row) => `      ${String(row['QUERY PLAN']).replace(/'\\x[0-9a-f]{200,}'/g, "'\\x…'")}`).join('\n')}`);
  }
}

/** An API call, timed. */
async function timed<T>(server: ServerHandle, method: string, path: string, body?: unknown): Promise<{ ms: number; body: T }> {
  const started = performance.now();
  const answer = await api<T>(server, method, path, body);
  return { ms: performance.now() - started, body: answer };
}

/** The export route's CSV: time, bytes, hash, and the server's peak RSS over it. */
async function routeExport(server: ServerHandle, analysisId: string) {
  server.resetPeak();
  const started = performance.now();
  const answer = await fetch(`${server.url}/api/v1/analyses/${analysisId}/export?format=csv`, { headers: { authorization: `Bearer ${server.token}` } });
  if (!answer.ok) throw new Error(`export: HTTP ${answer.status} ${await answer.text()}`);
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    hash.update(chunk);
  }
  return { ms: performance.now() - started, bytes, sha256: hash.digest('hex'), peak: server.peakRss() };
}

async function wholeExport(server: ServerHandle, analysisId: string) {
  server.resetPeak();
  const reply = (await server.command({ wholeExport: analysisId })) as { ms: number; bytes: number; sha256: string; error?: string };
  if (reply.error) throw new Error(`the whole export: ${reply.error}`);
  return { ...reply, peak: server.peakRss() };
}

export async function run(): Promise<void> {
  const keywords = Number(process.env.BENCH_SCALE_KEYWORDS ?? 1_000_000);
  const groupsTotal = Math.ceil(keywords / KEYWORDS_PER_GROUP);
  const campaigns = Math.max(1, Math.ceil(groupsTotal / GROUPS_PER_CAMPAIGN));
  console.log(`Results at scale: ${count(keywords)} keywords, ${campaigns} campaigns, on the real server (TypeScript sources)`);
  const server = await startServer('./results-at-scale-server.ts');
  const client = new pg.Client({ connectionString: server.databaseUrl });
  await client.connect();
  try {
    let started = performance.now();
    const kept = reuse ? await keptAnalysis(client) : null;
    let analysisId: string;
    let rareGroupName: string;
    if (kept) {
      ({ analysisId, rareGroupName } = kept);
      console.log(`  reused: analysis ${analysisId} of ${count(kept.suggestions)} suggestions, its decisions cleared, in ${seconds(performance.now() - started)}`);
    } else {
      const data = generateAccount({ campaigns, groupsPerCampaign: Math.ceil(groupsTotal / campaigns) });
      data.searchQueries = [];
      const stored = await storeAnalysis(client, data);
      analysisId = stored.analysisId;
      rareGroupName = data.campaigns[0]!.groups[7]!.name;
      data.campaigns = [];
      console.log(`  stored: ${count(stored.suggestions)} suggestions in ${seconds(performance.now() - started)}`);
    }

    const keys = (await client.query<{ campaign_key: string; group_key: string }>(`SELECT campaign_key, group_key FROM analysis_suggestions WHERE analysis_id = $1 AND kind = 'negative_keyword' ORDER BY position OFFSET $2 LIMIT 1`, [analysisId, Math.floor((groupsTotal * NEGATIVES_PER_GROUP) / 2)])).rows[0]!;
    const filters: [string, string][] = [
      ['kind + category (end-to-end bench)', 'kind=negative_keyword&category=query'],
      ['kind ad_field', 'kind=ad_field'],
      ['category free', 'category=free'],
      ['status check_by_hand', 'status=check_by_hand'],
      ['campaign', `campaign=${keys.campaign_key}`],
      ['group', `group=${keys.group_key}`],
      ['text «минус12345»', `text=${encodeURIComponent('минус12345')}`],
      ['text «купить» (common)', `text=${encodeURIComponent('купить')}`],
    ];
    // Right after the bulk accept of the 250 000 dearest (every negative): «undecided» first (the named
    // case: the first read after a bulk decision), then the filters combined with a decision.
    const decisionFilters: [string, string][] = [
      ['decision undecided', 'decision=undecided'],
      ['decision accepted', 'decision=accepted'],
      ['decision rejected (none)', 'decision=rejected'],
      ['kind negative + undecided', 'kind=negative_keyword&decision=undecided'],
      ['kind ad_field + undecided', 'kind=ad_field&decision=undecided'],
      ['category free + accepted', 'category=free&decision=accepted'],
      ['campaign + undecided', `campaign=${keys.campaign_key}&decision=undecided`],
      ['text «купить» + undecided', `text=${encodeURIComponent('купить')}&decision=undecided`],
    ];
    const findingFilters: [string, string][] = [
      ['by money (no filter)', 'sort=money'],
      ['by severity (no filter)', 'sort=severity'],
      ['severity high', 'severity=high'],
      ['check', 'check=keywords_without_conversions'],
      ['campaign', `campaign=${keys.campaign_key}`],
      ['group', `group=${keys.group_key}`],
      ['text «много фраз» (common)', `text=${encodeURIComponent('много фраз')}`],
      [`text (one group's name)`, `text=${encodeURIComponent(rareGroupName)}`],
    ];
    const timeList = async (list: [string, string][], path: 'suggestions' | 'findings') => {
      for (const [name, query] of list) {
        const times: number[] = [];
        let total = '';
        for (let round = 0; round < 3; round++) {
          const page = await timed<{ total: number; total_capped?: boolean }>(server, 'GET', `/analyses/${analysisId}/${path}?${query}&page=2&page_size=50`);
          times.push(page.ms);
          total = `${page.body.total_capped ? 'over ' : ''}${count(page.body.total)}`;
        }
        // The first read is its own figure: right after a bulk decision it is the one a person waits for.
        const first = times[0]!;
        times.sort((a, b) => a - b);
        console.log(`  ${path} page, ${name.padEnd(36)} median ${times[1]!.toFixed(0).padStart(5)} ms (of ${times.map((t) => t.toFixed(0)).join(', ')}), first ${first.toFixed(0)} ms, total ${total}`);
        // After the timed reads, so the plans do not warm what the first read finds.
        if (explain && path === 'suggestions') await explainPage(client, analysisId, new URLSearchParams(query));
      }
    };
    const timePages = (list: [string, string][]) => timeList(list, 'suggestions');
    const timeResults = async (name: string) => {
      const times: number[] = [];
      for (let round = 0; round < 3; round++) times.push((await timed(server, 'GET', `/analyses/${analysisId}/results`)).ms);
      const first = times[0]!;
      times.sort((a, b) => a - b);
      console.log(`  results (summary, first findings page, decision counts), ${name}: median ${times[1]!.toFixed(0)} ms (of ${times.map((t) => t.toFixed(0)).join(', ')}), first ${first.toFixed(0)} ms`);
    };
    // As the end-to-end bench asks it: right after the analysis completes, before the worker's VACUUM (ANALYZE) has run.
    await timePages([['kind + category, before VACUUM (ANALYZE)', filters[0]![1]]]);
    // What statistics alone do (an ANALYZE can run inside the saving transaction; a VACUUM cannot).
    started = performance.now();
    await client.query('ANALYZE analysis_suggestions');
    console.log(`  ANALYZE analysis_suggestions: ${seconds(performance.now() - started)}`);
    await timePages([['kind + category, after ANALYZE only', filters[0]![1]]]);
    started = performance.now();
    await client.query('VACUUM (ANALYZE) analysis_suggestions');
    console.log(`  VACUUM (ANALYZE) analysis_suggestions: ${seconds(performance.now() - started)}`);
    await timePages(filters);
    await client.query('VACUUM (ANALYZE) analysis_findings');
    await timeList(findingFilters, 'findings');
    await timeResults('no decisions');
    // A finding's items (the bench stores no scores nor semantic sections besides the query blocks).
    const finding = (await timed<{ items: { id: string }[] }>(server, 'GET', `/analyses/${analysisId}/findings?check=keywords_without_conversions&page_size=1`)).body.items[0]!.id;
    for (const [name, path] of [
      [`a finding's items`, `findings/${encodeURIComponent(finding)}/items?page=1&page_size=50`],
    ] as const) {
      const times: number[] = [];
      for (let round = 0; round < 3; round++) times.push((await timed(server, 'GET', `/analyses/${analysisId}/${path}`)).ms);
      times.sort((a, b) => a - b);
      console.log(`  ${name.padEnd(44)} median ${times[1]!.toFixed(0).padStart(5)} ms (of ${times.map((t) => t.toFixed(0)).join(', ')})`);
    }
    started = performance.now();
    const bulk = await timed<{ updated: number }>(server, 'POST', `/analyses/${analysisId}/decisions/bulk`, { filter: { kind: 'negative_keyword' }, decision: 'accepted' });
    console.log(`  bulk accept of every negative: ${count(bulk.body.updated)} in ${seconds(bulk.ms)}`);
    // GET /results first: its decision counts (250 000 blocks, 250 000 accepted) are the named case.
    await timeResults(`${count(bulk.body.updated)} accepted, right after the bulk`);
    await timePages(decisionFilters);
    // Clicks after the bulk accept: one negative rejected, then accepted again, each followed by the
    // results screen's GET /results (its decision counts moved by the click, or counted again).
    const clickTimes: number[] = [];
    const afterClick: number[] = [];
    const negative = (await timed<{ items: { id: string }[] }>(server, 'GET', `/analyses/${analysisId}/suggestions?kind=negative_keyword&page_size=1`)).body.items[0]!.id;
    for (let round = 0; round < 4; round++) {
      const decision = round % 2 === 0 ? 'rejected' : 'accepted';
      clickTimes.push((await timed(server, 'PATCH', `/analyses/${analysisId}/decisions`, { changes: [{ id: negative, decision }] })).ms);
      afterClick.push((await timed(server, 'GET', `/analyses/${analysisId}/results`)).ms);
    }
    const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!.toFixed(0);
    console.log(`  a click (PATCH one negative) after it: median ${median(clickTimes)} ms (of ${clickTimes.map((t) => t.toFixed(0)).join(', ')}); GET /results after the click: median ${median(afterClick)} ms (of ${afterClick.map((t) => t.toFixed(0)).join(', ')})`);
    // A bulk decision of a few (one group's 5 negatives rejected, then accepted again) after it, each
    // followed by GET /results: the counts of 250 000 blocks after a small write.
    const smallBulk: number[] = [];
    const afterSmallBulk: number[] = [];
    for (const decision of ['rejected', 'accepted']) {
      smallBulk.push((await timed(server, 'POST', `/analyses/${analysisId}/decisions/bulk`, { filter: { kind: 'negative_keyword', group: keys.group_key }, decision })).ms);
      afterSmallBulk.push((await timed(server, 'GET', `/analyses/${analysisId}/results`)).ms);
    }
    console.log(`  a bulk decision of one group's 5 negatives: ${smallBulk.map((t) => t.toFixed(0)).join(', ')} ms; GET /results after it: ${afterSmallBulk.map((t) => t.toFixed(0)).join(', ')} ms`);
    if (process.env.BENCH_SCALE_KEEP === '1') {
      console.log(`  kept for inspection: ${server.databaseUrl} analysis ${analysisId}`);
      await new Promise(() => undefined);
    }

    if (!withExport) return;
    const route = await routeExport(server, analysisId);
    const whole = await wholeExport(server, analysisId);
    const again = await routeExport(server, analysisId);
    console.log(`  export CSV, campaign by campaign (the route):    ${seconds(route.ms)}, ${mb(route.bytes)}, peak RSS ${mb(route.peak)}; again after the whole one: ${seconds(again.ms)}, peak RSS ${mb(again.peak)}`);
    console.log(`  export CSV, everything whole in memory (before): ${seconds(whole.ms)}, ${mb(whole.bytes)}, peak RSS ${mb(whole.peak)}`);
    console.log(`  ratio (before / now): time ${(whole.ms / route.ms).toFixed(2)}×, peak RSS ${(whole.peak / route.peak).toFixed(2)}×; same file: ${route.sha256 === whole.sha256 && again.sha256 === whole.sha256 ? 'yes' : 'NO'}`);
  } finally {
    await client.end();
    await server.stop();
  }
}

// `npx tsx bench/results-at-scale.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await run();
  process.exit(0);
}
