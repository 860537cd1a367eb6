import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PREVIEW_STORAGE_KEY, STEP1_STORAGE_KEY } from '@/features/projects/create-draft';
import { renderAt } from '../auth/render-app';
import { ownerOrganization, useTestServer, verifiedUser } from '../lib/test-server';
import { landingPathOf, resetSession, signIn } from '../routes/router-harness';

useTestServer();
beforeEach(() => {
  resetSession();
  sessionStorage.clear();
  signIn(verifiedUser, ownerOrganization);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

describe('two-step project creation (spec section 2)', () => {
  it('step 2 without step 1 data goes to step 1', async () => {
    expect(await landingPathOf('/projects/create/step2')).toBe('/projects/create/step1');
  });

  it('step 2 with invalid step 1 data goes to step 1', async () => {
    sessionStorage.setItem(STEP1_STORAGE_KEY, JSON.stringify({ name: 'Окна', site_url: 'не сайт', platform: 'yandex_direct' }));
    expect(await landingPathOf('/projects/create/step2')).toBe('/projects/create/step1');
    sessionStorage.setItem(STEP1_STORAGE_KEY, JSON.stringify({ name: 'Окна', site_url: 'okna.ru' }));
    expect(await landingPathOf('/projects/create/step2')).toBe('/projects/create/step1');
  });

  it('step 2 opens with valid step 1 data, which survives a reload (sessionStorage)', async () => {
    sessionStorage.setItem(STEP1_STORAGE_KEY, JSON.stringify({ name: 'Окна Плюс', site_url: 'okna-plus.ru', platform: 'yandex_direct' }));
    expect(await landingPathOf('/projects/create/step2')).toBe('/projects/create/step2');
    await renderAt('/projects/create/step2');
    expect(await screen.findByText('Окна Плюс')).toBeInTheDocument();
    expect(screen.getByText(/https:\/\/okna-plus\.ru/)).toBeInTheDocument();
    expect(screen.getByTestId('dropzone')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сохранить проект' })).toBeDisabled();
  });

  it('a preview made before a reload is shown again, ready to save', async () => {
    sessionStorage.setItem(STEP1_STORAGE_KEY, JSON.stringify({ name: 'Окна Плюс', site_url: 'okna-plus.ru', platform: 'yandex_direct' }));
    sessionStorage.setItem(
      PREVIEW_STORAGE_KEY,
      JSON.stringify({
        draft_id: '33333333-3333-4333-8333-333333333333',
        source: 'files',
        platform: 'yandex_direct',
        file_names: ['direct.xlsx'],
        counts: { campaigns: 1, groups: 2, ads: 3, keywords: 40, searchQueries: 0 },
        problems: [],
        detected: [],
        campaigns: [{ name: 'Окна — поиск', groups: 2, ads: 3, keywords: 40 }],
        expires_at: new Date(Date.now() + 3600_000).toISOString(),
      }),
    );
    await renderAt('/projects/create/step2');
    expect(await screen.findByText('Окна — поиск')).toBeInTheDocument();
    expect(screen.getByText('Файлы: direct.xlsx')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Сохранить проект' })).toBeEnabled();
  });

  it('/projects/create starts at step 1', async () => {
    expect(await landingPathOf('/projects/create')).toBe('/projects/create/step1');
  });
});
