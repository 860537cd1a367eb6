/**
 * Issue 24, item 3: the organization's branding on /organization and the white-label PDF of an audit. The
 * PDF's text is read back with a PDF text extractor (unpdf, pdf.js), as a client's viewer would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultsSummary } from '../../../contract/analysis-pages.js';
import { moneyCauseLabel, readMoneyStory } from '../../../contract/analysis-results.js';
import { moneyHeadline } from '../../../contract/format.js';
import { reportMessages } from '../../../contract/messages.js';
import { closeWorkerPools } from '../../../server/lib/worker-pool.js';
import { call, createTestApp, type TestApp } from '../helpers/app.js';
import { createUser, type FixtureUser } from '../helpers/fixtures.js';
import { auditAgain, completedAudit, dataUrl, pdfText, pngLogo } from './helpers.js';

const spaced = (text: string) => text.replace(/\s+/g, ' ');

let t: TestApp;
let owner: FixtureUser;
let member: FixtureUser;
let stranger: FixtureUser;
let analysisId: string;
let summary: ResultsSummary;

beforeAll(async () => {
  t = await createTestApp({ jobQueue: { runWorkers: true } });
  owner = await createUser(t.app, { balance: 100_000 });
  member = await createUser(t.app, { organizationId: owner.organizationId });
  stranger = await createUser(t.app, { balance: 100_000 });
  ({ analysisId } = await completedAudit(t.app, owner));
  summary = (await call(t.app, 'GET', `/api/v1/analyses/${analysisId}/results`, { token: owner.token })).body.summary;
});
afterAll(async () => {
  await closeWorkerPools();
  await t?.close();
});

const fetchPdf = (token: string, id = analysisId) => t.app.inject({ method: 'GET', url: `/api/v1/analyses/${id}/report.pdf`, headers: { authorization: `Bearer ${token}` } });
const putBranding = (body: unknown, token = owner.token) => call(t.app, 'PUT', '/api/v1/organizations/current/branding', { token, body });

describe('branding of client reports', () => {
  it('keeps the name, colour and a PNG logo per organization, and shows them back', async () => {
    const logo = dataUrl(pngLogo());
    const saved = await putBranding({ report_name: 'Агентство «Север»', accent_color: '#0A7F5C', logo });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ report_name: 'Агентство «Север»', accent_color: '#0a7f5c', logo, can_edit: true });
    // Another organization sees its own (nothing set), not this one.
    const other = await call(t.app, 'GET', '/api/v1/organizations/current/branding', { token: stranger.token });
    expect(other.body).toMatchObject({ report_name: null, accent_color: null, logo: null });
    // A member reads it but does not change it.
    expect((await call(t.app, 'GET', '/api/v1/organizations/current/branding', { token: member.token })).body).toMatchObject({ report_name: 'Агентство «Север»', can_edit: false });
    expect((await putBranding({ report_name: 'Чужое' }, member.token)).status).toBe(403);
  });

  it('refuses an SVG, a broken or oversized image and a wrong colour in Russian, changing nothing', async () => {
    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64')}`;
    const broken = pngLogo();
    broken.fill(7, 40, 60);
    const cases: [unknown, string][] = [
      [{ logo: svg }, reportMessages.logoInvalid],
      [{ logo: dataUrl(Buffer.from('GIF89a not an image')) }, reportMessages.logoInvalid],
      [{ logo: dataUrl(broken) }, reportMessages.logoUnreadable],
      [{ logo: dataUrl(pngLogo(8, 8)) }, reportMessages.logoSize],
      [{ logo: dataUrl(Buffer.concat([pngLogo(), Buffer.alloc(300 * 1024)])) }, reportMessages.logoTooLarge],
      [{ accent_color: 'red' }, reportMessages.accentColorInvalid],
      [{ report_name: 'Я' }, reportMessages.reportNameInvalid],
    ];
    for (const [body, message] of cases) {
      const refused = await putBranding(body);
      expect(refused.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(refused.body.error).toContain(message);
    }
    const kept = await call(t.app, 'GET', '/api/v1/organizations/current/branding', { token: owner.token });
    expect(kept.body).toMatchObject({ report_name: 'Агентство «Север»', accent_color: '#0a7f5c' });
    expect(kept.body.logo).toMatch(/^data:image\/png;base64,/);
  });
});

describe('the client report PDF', () => {
  it('is an A4 PDF with Cyrillic fonts embedded, the organization, the money figure with its period, the score and the causes', async () => {
    const response = await fetchPdf(member.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-report-\d{4}-\d{2}-\d{2}\.pdf"$/);
    const pdf = response.rawPayload;
    const raw = pdf.toString('latin1');
    expect(raw).toContain('/MediaBox [0 0 595.28 841.89]');
    expect(raw).toMatch(/\/FontFile2/);
    expect(raw).toContain('/Subtype /Image');

    const text = await pdfText(pdf);
    expect(text).toContain('Агентство «Север»');
    expect(text).not.toContain('Reklama Lab');
    const money = readMoneyStory(summary.money!, summary.settings.targetCpa);
    expect(Math.round(money.perMonth)).toBeGreaterThan(0);
    expect(text).toContain(spaced(moneyHeadline(money.perMonth)));
    expect(text).toMatch(/за \d{2}\.\d{2}\.\d{4} — \d{2}\.\d{2}\.\d{4}, пересчитано на месяц|за период статистики, пересчитано на месяц/);
    for (const cause of money.causes.filter((item) => Math.round(item.perMonth) > 0)) expect(text).toContain(moneyCauseLabel(cause.cause, money));
    expect(text).toContain('Оценка аккаунта');
    expect(text).toContain(`${Math.round(summary.scores.account.score)} из 100`);
    expect(text).toContain(summary.top.findings[0]!.title);
    expect(text).toContain('План действий');
    expect(text).toMatch(/1 из \d+/);
  });

  it('falls back to the organization name and carries no logo once the branding is cleared', async () => {
    expect((await putBranding({ report_name: null, logo: null, accent_color: null })).status).toBe(200);
    const org = await t.app.db.selectFrom('organizations').select('name').where('id', '=', owner.organizationId).executeTakeFirstOrThrow();
    const response = await fetchPdf(owner.token);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.toString('latin1')).not.toContain('/Subtype /Image');
    expect(await pdfText(response.rawPayload)).toContain(org.name);
  });

  it("is not another organization's to read", async () => {
    const response = await fetchPdf(stranger.token);
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body).error).toBeTruthy();
  });
});

describe('the report of a later audit', () => {
  it('says what was fixed since the previous audit (the audit comparison) and draws the trend', async () => {
    const first = await completedAudit(t.app, owner);
    // «Повысить ставку» needs 30 clicks by default; at 1 000 the keyword of 50 clicks has no action in the next audit.
    const before = (await call(t.app, 'GET', `/api/v1/analyses/${first.analysisId}/results`, { token: owner.token })).body.summary as ResultsSummary;
    expect(before.byCheck.map((check) => check.checkId)).toContain('keyword.action_raise_bid');
    const changed = await call(t.app, 'PATCH', `/api/v1/projects/${first.projectId}`, { token: owner.token, body: { settings: { min_clicks_for_keyword_action: 1000 } } });
    expect(changed.status).toBe(200);
    const second = await auditAgain(t.app, owner, first);

    const link = (await call(t.app, 'POST', `/api/v1/analyses/${second}/share-links`, { token: owner.token, body: {} })).body;
    const shared = JSON.parse((await t.app.inject({ method: 'GET', url: `/api/v1/public/reports/${link.token}` })).body);
    const fixed = shared.report.changes.fixed as { title: string; count: number }[];
    const raiseBid = before.byCheck.find((check) => check.checkId === 'keyword.action_raise_bid')!.title;
    expect(fixed.map((row) => row.title)).toContain(raiseBid);
    expect(shared.report.trend).toHaveLength(2);

    const response = await fetchPdf(owner.token, second);
    expect(response.statusCode).toBe(200);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Что исправлено с прошлого аудита');
    for (const row of fixed) expect(text).toContain(`✓ ${row.title}: ${row.count} мест`.replace(/мест$/, row.count === 1 ? 'место' : row.count < 5 ? 'места' : 'мест'));
    expect(text).toContain('Динамика');
  });

  it('has no changes section for a project\'s first audit', async () => {
    const link = (await call(t.app, 'POST', `/api/v1/analyses/${analysisId}/share-links`, { token: owner.token, body: {} })).body;
    const shared = JSON.parse((await t.app.inject({ method: 'GET', url: `/api/v1/public/reports/${link.token}` })).body);
    expect(shared.report.changes).toBeNull();
    expect(await pdfText((await fetchPdf(owner.token)).rawPayload)).not.toContain('Что исправлено с прошлого аудита');
  });
});
