import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ProjectSummary } from '@contract/projects.js';
import { renderAt } from '../auth/render-app';
import { server, useTestServer, verifiedUser } from '../lib/test-server';
import { signInOwner } from '../lib/signed-in';

useTestServer();
beforeEach(() => {
  // The header's balance indicator asks too (signInOwner answers it); it is not what these tests look at.
  signInOwner();
});

const project = (overrides: Partial<ProjectSummary>): ProjectSummary => ({
  id: '44444444-4444-4444-8444-444444444444',
  name: 'Окна Плюс',
  site_url: 'https://okna-plus.ru',
  platform: 'yandex_direct',
  region: null,
  target_cpa: null,
  author: { id: verifiedUser.id, full_name: 'Анна Петрова' },
  created_at: '2025-02-01T10:00:00.000Z',
  updated_at: '2025-02-03T10:00:00.000Z',
  counts: { campaigns: 3, groups: 12, ads: 21, keywords: 1504 },
  last_analysis: null,
  ...overrides,
});

describe('project list', () => {
  it('shows each project with its platform, counts and last analysis score', async () => {
    const requests: URL[] = [];
    server.use(
      http.get('/api/v1/projects', ({ request }) => {
        requests.push(new URL(request.url));
        return HttpResponse.json({
          items: [
            project({}),
            project({
              id: '55555555-5555-4555-8555-555555555555',
              name: 'Бетон Москва',
              platform: 'google_ads',
              counts: { campaigns: 1, groups: 1, ads: 1, keywords: 1 },
              last_analysis: { id: '66666666-6666-4666-8666-666666666666', score: 72.4, created_at: '2025-02-02T10:00:00.000Z', money_per_month: 5187 },
            }),
          ],
          total: 2,
          page: 1,
          page_size: 100,
        });
      }),
    );
    await renderAt('/projects');
    const list = await screen.findByRole('list', { name: 'Список проектов' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByRole('link', { name: 'Окна Плюс' })).toHaveAttribute('href', '/projects/44444444-4444-4444-8444-444444444444');
    expect(within(cards[0]!).getByText('Яндекс Директ')).toBeInTheDocument();
    expect(within(cards[0]!).getByText(/3 кампании · 21 объявление · 1\s504 фразы/)).toBeInTheDocument();
    expect(within(cards[0]!).getByText('Анализов ещё не было')).toBeInTheDocument();
    expect(within(cards[1]!).getByText('Google Ads')).toBeInTheDocument();
    expect(within(cards[1]!).getByText(/1 кампания · 1 объявление · 1 фраза/)).toBeInTheDocument();
    expect(within(cards[1]!).getByText('72 / 100')).toBeInTheDocument();
    // The last analysis' one money figure, as on its results screen.
    expect(within(cards[1]!).getByTestId('money-line')).toHaveTextContent('Теряете ≈ 5 187 ₽ в месяц');
    expect(within(cards[0]!).queryByTestId('money-line')).not.toBeInTheDocument();
    expect(requests[0]!.searchParams.get('sort')).toBe('updated');
  });

  it('passes search and sort from the address to the API', async () => {
    const requests: URL[] = [];
    server.use(
      http.get('/api/v1/projects', ({ request }) => {
        requests.push(new URL(request.url));
        return HttpResponse.json({ items: [], total: 0, page: 1, page_size: 100 });
      }),
    );
    await renderAt('/projects?search=%D0%BE%D0%BA%D0%BD%D0%B0&sort=name');
    expect(await screen.findByText('Ничего не найдено')).toBeInTheDocument();
    expect(requests[0]!.searchParams.get('search')).toBe('окна');
    expect(requests[0]!.searchParams.get('sort')).toBe('name');
    expect(screen.getByRole('combobox', { name: 'Сортировка' })).toHaveValue('name');
  });

  it('searches as the user types (once typing pauses) and sorts when asked, keeping both in the address', async () => {
    const requests: URL[] = [];
    server.use(
      http.get('/api/v1/projects', ({ request }) => {
        const url = new URL(request.url);
        requests.push(url);
        const search = url.searchParams.get('search') ?? '';
        const items = [project({}), project({ id: '55555555-5555-4555-8555-555555555555', name: 'Бетон Москва' })].filter((item) => item.name.toLowerCase().includes(search));
        return HttpResponse.json({ items, total: items.length, page: 1, page_size: 100 });
      }),
    );
    const user = userEvent.setup();
    const { router } = await renderAt('/projects');
    await screen.findByRole('link', { name: 'Бетон Москва' });

    await user.type(screen.getByRole('searchbox', { name: 'Поиск по названию' }), 'бетон');
    await waitFor(() => expect(router.state.location.search).toMatchObject({ search: 'бетон' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Окна Плюс' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Бетон Москва' })).toBeInTheDocument();
    // The server is asked once typing pauses, not once per letter.
    const searched = requests.map((url) => url.searchParams.get('search')).filter((search) => search !== null);
    expect(searched.at(-1)).toBe('бетон');
    expect(searched.length).toBeLessThan('бетон'.length);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Сортировка' }), 'По названию');
    await waitFor(() => expect(requests.at(-1)!.searchParams.get('sort')).toBe('name'));
    expect(requests.at(-1)!.searchParams.get('search')).toBe('бетон');
    expect(router.state.location.search).toMatchObject({ search: 'бетон', sort: 'name' });
  });

  it('shows the empty state with a way to create the first project', async () => {
    server.use(http.get('/api/v1/projects', () => HttpResponse.json({ items: [], total: 0, page: 1, page_size: 100 })));
    await renderAt('/projects');
    expect(await screen.findByText('Проектов пока нет')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Создать первый проект' })).toHaveAttribute('href', '/projects/create/step1');
  });

  it('marks the list and the project queries for offline persistence', async () => {
    const { projectListQueryOptions, projectQueryOptions } = await import('@/lib/projects-api');
    expect(projectListQueryOptions({ search: '', sort: 'updated' }).meta).toEqual({ persist: true });
    expect(projectQueryOptions('x').meta).toEqual({ persist: true });
  });
});
