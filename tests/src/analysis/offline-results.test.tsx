import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '@/app/query-client';
import { resultsQueryOptions } from '@/lib/analysis-results';
import { renderAt } from '../auth/render-app';
import { reloadedOffline } from '../lib/persisted-cache';
import { useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';
import { analysisId, fakePagedApi, projectId } from './fixtures';

useTestServer();

const resultsPath = `/projects/${projectId}/analysis/${analysisId}/results`;
let api: ReturnType<typeof fakePagedApi>;

beforeEach(() => {
  api = fakePagedApi();
  signInOwner(...api.handlers);
});
afterEach(() => onlineManager.setOnline(true));

/** The results of the analysis opened once online, then the app started again without network. */
async function reopenedOffline(): Promise<QueryClient> {
  const before = createQueryClient();
  await before.fetchQuery(resultsQueryOptions(analysisId));
  return reloadedOffline(before);
}

describe('results without network', () => {
  it('open from the persisted cache with the header and the first findings page; lists not read yet say they need the network', async () => {
    const queryClient = await reopenedOffline();
    const requestsBefore = api.requests.length;
    const user = userEvent.setup();
    await renderAt(resultsPath, { queryClient });

    expect(await screen.findByTestId('money-headline')).toHaveTextContent('Теряете ≈ 5 187 ₽ в месяц');
    expect(screen.getByRole('img', { name: 'Оценка аккаунта: 64 из 100' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Список замечаний' })).getAllByTestId('finding').length).toBeGreaterThan(0);

    // A filter asks for a list that was never read: it says so instead of spinning.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Важность' }), 'Порядок в аккаунте');
    expect(await screen.findByTestId('needs-network')).toHaveTextContent('Нет подключения к сети: замечания загрузятся, когда связь появится.');
    // The «12 фраз» list of an aggregated finding too.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Важность' }), 'Любая');
    await waitFor(() => expect(screen.queryByTestId('needs-network')).not.toBeInTheDocument());
    const aggregated = within(screen.getByRole('list', { name: 'Список замечаний' })).getAllByTestId('finding')[1]!;
    await user.click(within(aggregated).getByRole('button', { name: 'Все 12 фраз' }));
    expect(within(aggregated).getByTestId('needs-network')).toBeInTheDocument();
    expect(api.requests.length).toBe(requestsBefore);

    // The network comes back: the waiting list is read.
    onlineManager.setOnline(true);
    await waitFor(() => expect(api.requestsTo(`/findings/f-agg/items`)).toHaveLength(1));
  });

  it('opens the suggestions screen of that analysis with its counts; the suggestions need the network', async () => {
    const queryClient = await reopenedOffline();
    await renderAt(`/projects/${projectId}/analysis/${analysisId}/semantic`, { queryClient });
    expect(await screen.findByRole('heading', { name: 'Семантика: предложения' })).toBeInTheDocument();
    expect(screen.getByTestId('undecided-count')).toHaveTextContent('6');
    expect(screen.getByTestId('needs-network')).toHaveTextContent('Нет подключения к сети: предложения загрузятся, когда связь появится.');
  });

  it('says an analysis never opened on this device needs the network, instead of spinning for ever', async () => {
    onlineManager.setOnline(false);
    await renderAt(resultsPath, { queryClient: createQueryClient() });
    expect(await screen.findByTestId('results-offline')).toHaveTextContent('Результаты этого анализа ещё не открывались на этом устройстве');
    expect(api.requests).toHaveLength(0);
  });
});
