import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgencyClientImportList, AgencyClientList } from '@contract/direct-connections.js';
import { STEP1_STORAGE_KEY } from '@/features/projects/create-draft';
import { renderAt } from '../auth/render-app';
import { server, useTestServer } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';

useTestServer();

const connectionId = '77777777-7777-4777-8777-777777777777';
const existingProject = '99999999-9999-4999-8999-999999999999';

/** Twelve clients (past 8 the search appears); «Окна Пермь» already has a project of this connection. */
const clients: AgencyClientList = {
  agency: true,
  clients: [
    { login: 'okna-perm', name: 'Окна Пермь', project: { id: existingProject, name: 'Окна Пермь', units_spent: 1240 } },
    { login: 'okna-ekb', name: 'Окна Екатеринбург', project: null },
    ...Array.from({ length: 10 }, (_, index) => ({ login: `client-${index + 1}`, name: `Клиент ${index + 1}`, project: null })),
  ],
};

const turn = (login: string, name: string, extra: Partial<AgencyClientImportList['imports'][number]>): AgencyClientImportList['imports'][number] => ({
  id: `${login}-turn`,
  client_login: login,
  client_name: name,
  status: 'waiting',
  import_job_id: null,
  stage: null,
  project: null,
  refreshed: false,
  units_spent: null,
  error: null,
  error_code: null,
  created_at: '2026-12-02T10:00:00.000Z',
  finished_at: null,
  ...extra,
});

beforeEach(() => {
  sessionStorage.clear();
  signInOwner();
  sessionStorage.setItem(STEP1_STORAGE_KEY, JSON.stringify({ name: 'Агентство', site_url: 'agency.example', platform: 'yandex_direct' }));
});

describe("an agency's clients on step 2", () => {
  it('finds clients by a search, picks the found ones, says which will be refreshed, and shows each client as it ends', async () => {
    let started: unknown = null;
    let imports: AgencyClientImportList = { imports: [], concurrency: 2 };
    server.use(
      http.get('/api/v1/direct/connections', () =>
        HttpResponse.json({ oauth_available: true, connections: [{ id: connectionId, login: 'agency-one', expires_at: '2027-12-01T00:00:00.000Z', connected_at: '2026-12-01T00:00:00.000Z', connected_by: 'Анна Агентова' }] }),
      ),
      http.get(`/api/v1/direct/connections/${connectionId}/clients`, () => HttpResponse.json(clients)),
      http.get(`/api/v1/direct/connections/${connectionId}/client-imports`, () => HttpResponse.json(imports)),
      http.post(`/api/v1/direct/connections/${connectionId}/client-imports`, async ({ request }) => {
        started = await request.json();
        imports = {
          concurrency: 2,
          imports: [
            turn('okna-ekb', 'Окна Екатеринбург', { status: 'failed', units_spent: 20, error: 'Закончились баллы API Яндекс Директа. Баллы начисляются каждый час, попробуйте позже' }),
            turn('okna-perm', 'Окна Пермь', { status: 'completed', refreshed: true, units_spent: 1310, project: { id: existingProject, name: 'Окна Пермь' } }),
          ],
        };
        return HttpResponse.json(imports, { status: 202 });
      }),
    );
    const user = userEvent.setup();
    await renderAt('/projects/create/step2');
    await user.click(await screen.findByRole('tab', { name: 'API Яндекс Директа' }));
    const picker = await screen.findByRole('group', { name: 'Клиенты агентства' });
    expect(within(picker).getByText(/последняя загрузка: 1\s240 баллов/)).toBeInTheDocument();

    await user.type(within(picker).getByRole('searchbox', { name: 'Поиск клиента' }), 'окна');
    expect(within(picker).getAllByRole('checkbox')).toHaveLength(3);
    await user.click(within(picker).getByRole('checkbox', { name: 'Выбрать найденных (2)' }));
    expect(within(picker).getByText('У 1 из выбранных проект уже есть: его кампании загрузятся заново.')).toBeInTheDocument();
    await user.click(within(picker).getByRole('button', { name: 'Создать проекты: 2' }));

    expect(started).toEqual({ logins: ['okna-perm', 'okna-ekb'] });
    const progress = await within(picker).findByRole('region', { name: 'Загрузка клиентов агентства' });
    expect(within(progress).getByRole('status')).toHaveTextContent('Готово 2 из 2');
    const rows = within(progress).getAllByRole('listitem').map((row) => row.textContent);
    expect(rows[0]).toBe('Окна Екатеринбург — ошибка, 20 баллов APIЗакончились баллы API Яндекс Директа. Баллы начисляются каждый час, попробуйте позже');
    expect(rows[1]).toMatch(/^Окна Пермь — проект обновлён, 1\s310 баллов API · Открыть проект «Окна Пермь»$/);
    expect(within(progress).getByRole('link', { name: 'Открыть проект «Окна Пермь»' })).toHaveAttribute('href', `/projects/${existingProject}`);
  });
});
