import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditChanges, AuditTrend } from '@contract/audit-changes.js';
import type { ProjectDetail } from '@contract/projects.js';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';

useTestServer();

const id = '44444444-4444-4444-8444-444444444444';
const first = '11111111-1111-4111-8111-111111111111';
const second = '22222222-2222-4222-8222-222222222222';

const detail: ProjectDetail = {
  id,
  name: 'Цветы Плюс',
  site_url: 'https://cvety.example',
  platform: 'yandex_direct',
  region: null,
  target_cpa: null,
  author: null,
  created_at: '2026-10-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  counts: { campaigns: 0, groups: 0, ads: 0, keywords: 0 },
  last_analysis: { id: second, score: 61, created_at: '2026-11-08T09:00:00.000Z', money_per_month: 13_100 },
  settings: {},
  stats: null,
  period: null,
  search_queries: 0,
  campaigns: [],
  imports: [],
  connection: null,
};

const trend: AuditTrend = {
  audits: [
    { id: first, created_at: '2026-11-01T09:00:00.000Z', score: 66, money_per_month: 7_900 },
    { id: second, created_at: '2026-11-08T09:00:00.000Z', score: 61, money_per_month: 13_100 },
  ],
};

const changes: AuditChanges = {
  from: { id: first, created_at: trend.audits[0]!.created_at },
  to: { id: second, created_at: trend.audits[1]!.created_at },
  changes: [
    { status: 'new', checkId: 'keyword.action_stop', title: 'Остановить фразу', entityLabel: 'Цветы — поиск › Розы › розы оптом', level: 'keyword', moneyBefore: 0, moneyAfter: 5200, moneyChange: 5200, currentFindingId: 'f-new' },
    { status: 'fixed', checkId: 'ad.no_sitelinks', title: 'Нет быстрых ссылок', entityLabel: 'Цветы — поиск › Розы › Свежие розы', level: 'ad', moneyBefore: 0, moneyAfter: 0, moneyChange: 0, previousFindingId: 'f-old' },
  ],
  counts: { new: 1, worse: 0, fixed: 3, better: 0, open: 0 },
  moneyBefore: 7_900,
  moneyAfter: 13_100,
  scoreBefore: 66,
  scoreAfter: 61,
};

beforeEach(() => {
  signInOwner(http.get(`/api/v1/projects/${id}`, () => HttpResponse.json(detail)));
});

describe('«Что изменилось» on the project page', () => {
  it('compares the last two audits: money and score before → after, changes by status with their ₽/month and links to the findings', async () => {
    const asked: string[] = [];
    server.use(
      http.get(`/api/v1/projects/${id}/audit-trend`, () => HttpResponse.json(trend)),
      http.get(`/api/v1/projects/${id}/audit-changes`, ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json(changes);
      }),
    );
    await renderAt(`/projects/${id}`);
    const section = await screen.findByRole('region', { name: 'Что изменилось' });
    const added = await within(section).findByRole('region', { name: 'Новые' });
    expect(asked).toEqual([`?from=${first}&to=${second}`]);
    expect(within(section).getByRole('img', { name: /^Потери, ₽ в месяц: [^;]+ — 7\s900\s₽; [^;]+ — 13\s100\s₽$/ })).toBeInTheDocument();
    expect(within(section).getByText(/\+5\s200\s₽\/мес/, { selector: '.stat .money-change' })).toBeInTheDocument();

    expect(within(added).getByText('Остановить фразу')).toBeInTheDocument();
    expect(within(added).getByText(/^\+5\s200\s₽\/мес$/)).toBeInTheDocument();
    const link = within(added).getByRole('link', { name: 'К находке' });
    expect(link.getAttribute('href')).toContain(`/projects/${id}/analysis/${second}/results?`);
    const search = new URL(link.getAttribute('href')!, 'http://x').searchParams;
    expect([search.get('check'), search.get('text')]).toEqual(['["keyword.action_stop"]', 'розы оптом']);

    const fixed = within(section).getByRole('region', { name: 'Исправлено' });
    expect(within(fixed).getByText('3')).toBeInTheDocument();
    expect(within(fixed).getByText('без оценки в деньгах')).toBeInTheDocument();
    expect(within(fixed).getByRole('link', { name: 'Как было' }).getAttribute('href')).toContain(`/analysis/${first}/results`);
    expect(within(fixed).getByText('Показаны первые 1 из 3: самые крупные по деньгам.')).toBeInTheDocument();
  });

  it('with one audit shows its figures in words and says the chart and the comparison come with the second, not two near-empty charts', async () => {
    server.use(http.get(`/api/v1/projects/${id}/audit-trend`, () => HttpResponse.json({ audits: trend.audits.slice(0, 1) })));
    await renderAt(`/projects/${id}`);
    const section = await screen.findByRole('region', { name: 'Что изменилось' });
    expect(within(section).getByTestId('audit-changes-single')).toHaveTextContent(/^Анализ 01\.11\.2026: потери ≈ 7\s900 ₽ в месяц, оценка 66 \/ 100\.$/);
    expect(within(section).getByText('График появится после второго анализа, а с ним и сравнение: что исправлено, что появилось нового.')).toBeInTheDocument();
    expect(within(section).queryByRole('figure')).not.toBeInTheDocument();
  });
});
