import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderAt } from '../auth/render-app';
import { useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { analysisId, fakePagedApi, projectId, summary } from './fixtures';

useTestServer();

const resultsPath = `/projects/${projectId}/analysis/${analysisId}/results`;
const noIds = {
  code: 'NO_IDS' as const,
  message: 'Кампаний без ID Директа: 2 из 2 (в загруженных файлах не было столбцов «ID кампании», «ID группы»). Директ Коммандер создаст такие кампании из файла изменений заново, а не изменит существующие.',
};

describe('export of the accepted changes: how to upload it', () => {
  it('tells how to upload each file and what its ids do', async () => {
    signInOwner(...fakePagedApi().handlers);
    await renderAt(resultsPath);
    const card = within((await screen.findByRole('heading', { name: 'Выгрузка изменений' })).closest('section')!);
    expect(card.getByText('Как загрузить файл')).toBeInTheDocument();
    expect(card.getByText(/Директ Коммандер: «Импорт объявлений из таблицы»/)).toBeInTheDocument();
    expect(card.getByText(/«ID кампании», «ID группы», «ID фразы», «ID объявления» взяты из импорта/)).toBeInTheDocument();
    expect(card.getByText(/«Аккаунт» → «Импорт» → «Из файла…»/)).toBeInTheDocument();
    expect(card.getByText(/\{campaign_id\} → \{campaignid\}/)).toBeInTheDocument();
    // One campaign per XLSX for the web interface; several come as a ZIP.
    expect(card.getByText(/XLSX — отдельный файл на каждую кампанию; если кампаний несколько, они приходят ZIP-архивом/)).toBeInTheDocument();
    expect(card.getByText(/не набрать 3 заголовка и 2 описания, в файл не попадает/)).toBeInTheDocument();
    expect(screen.queryByTestId('export-no-ids')).not.toBeInTheDocument();
  });

  it('says beside the export, not in the header, that campaigns without ids would be created anew', async () => {
    signInOwner(...fakePagedApi({ summary: { ...summary, notices: [noIds] } }).handlers);
    await renderAt(resultsPath);
    const card = within((await screen.findByRole('heading', { name: 'Выгрузка изменений' })).closest('section')!);
    expect(card.getByTestId('export-no-ids')).toHaveTextContent('Директ Коммандер создаст такие кампании из файла изменений заново');
    expect(screen.getAllByText(/Кампаний без ID Директа/)).toHaveLength(1);
  });
});
