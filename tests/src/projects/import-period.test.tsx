import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { projectMessages } from '@contract/messages.js';
import type { ImportPreview } from '@contract/projects.js';
import { PREVIEW_STORAGE_KEY, STEP1_STORAGE_KEY } from '@/features/projects/create-draft';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';

useTestServer();

const draftId = '33333333-3333-4333-8333-333333333333';
const preview = (patch: Partial<ImportPreview>): ImportPreview => ({
  draft_id: draftId,
  source: 'files',
  platform: 'yandex_direct',
  file_names: ['direct.tsv', 'статистика.csv'],
  counts: { campaigns: 1, groups: 2, ads: 2, keywords: 5, searchQueries: 0 },
  problems: [],
  detected: [],
  campaigns: [{ name: 'Диваны — Поиск', groups: 2, ads: 2, keywords: 5 }],
  expires_at: new Date(Date.now() + 3600_000).toISOString(),
  ...patch,
});

function openStep2(withPreview: ImportPreview) {
  sessionStorage.setItem(STEP1_STORAGE_KEY, JSON.stringify({ name: 'Диваны Комфорт', site_url: 'divany-komfort.ru', platform: 'yandex_direct' }));
  sessionStorage.setItem(PREVIEW_STORAGE_KEY, JSON.stringify(withPreview));
  return renderAt('/projects/create/step2');
}

beforeEach(() => {
  sessionStorage.clear();
  signInOwner();
});

describe('the import preview: statistics read and their period', () => {
  it('shows the rows read and the period the files gave', async () => {
    await openStep2(preview({ statistics_rows: 1240, period: { from: '2026-10-01', to: '2026-10-31' } }));
    expect(await screen.findByTestId('import-statistics')).toHaveTextContent('Статистика: прочитано 1 240 строк, период 01.10.2026 — 31.10.2026.');
    expect(screen.queryByRole('form', { name: 'Период статистики' })).not.toBeInTheDocument();
  });

  it('asks for the period when the files do not say it, checks it, and shows it once saved on the preview', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    server.use(
      http.put(`/api/v1/projects/import-drafts/${draftId}/period`, async ({ request }) => {
        const body = (await request.json()) as { from: string; to: string };
        sent.push(body);
        return HttpResponse.json({ period: body });
      }),
    );
    await openStep2(preview({ statistics_rows: 21, period: null }));
    const block = await screen.findByTestId('import-statistics');
    expect(block).toHaveTextContent('Статистика: прочитана 21 строка. Период в файлах не указан');
    expect(block).toHaveTextContent('будто статистика за 30 дней');

    const form = within(screen.getByRole('form', { name: 'Период статистики' }));
    await user.type(form.getByLabelText('Статистика с'), '2026-10-14');
    await user.type(form.getByLabelText('по'), '2026-10-01');
    await user.click(form.getByRole('button', { name: 'Указать период' }));
    expect(await form.findByText(projectMessages.statsPeriodOrder)).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.clear(form.getByLabelText('Статистика с'));
    await user.type(form.getByLabelText('Статистика с'), '2026-09-18');
    await user.clear(form.getByLabelText('по'));
    await user.type(form.getByLabelText('по'), '2026-10-01');
    await user.click(form.getByRole('button', { name: 'Указать период' }));
    expect(await screen.findByText('Статистика: прочитана 21 строка, период 18.09.2026 — 01.10.2026.')).toBeInTheDocument();
    expect(sent).toEqual([{ from: '2026-09-18', to: '2026-10-01' }]);
    // The period stays with the preview over a reload.
    expect(JSON.parse(sessionStorage.getItem(PREVIEW_STORAGE_KEY)!)).toMatchObject({ period: { from: '2026-09-18', to: '2026-10-01' } });
  });

  it('says when the files have no statistics at all', async () => {
    await openStep2(preview({ statistics_rows: 0, period: null }));
    expect(await screen.findByTestId('import-statistics')).toHaveTextContent('Статистики в файлах нет');
  });
});
