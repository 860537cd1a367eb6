import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteError } from '@/components/layout/RouteError';
import {
  CHUNK_RELOAD_STORAGE_KEY,
  RELOAD_GUARD_MS,
  installChunkErrorRecovery,
  isChunkLoadError,
  reloadOnceForNewVersion,
  resetChunkReloadState,
  type ReloadEnvironment,
} from '@/lib/chunk-reload';
import { NewVersionNotice } from '@/components/NewVersionNotice';

const staleChunk = new TypeError('Failed to fetch dynamically imported module: https://app.example/assets/semantic-Bx1.js');

function environment(start = 1_000_000) {
  const values = new Map<string, string>();
  const clock = { now: start };
  const reload = vi.fn<() => void>();
  const env: ReloadEnvironment = {
    storage: { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) },
    reload,
    now: () => clock.now,
  };
  return { ...env, clock, reload };
}

beforeEach(() => resetChunkReloadState());
afterEach(() => sessionStorage.clear());

describe('recovering from a chunk a deploy removed', () => {
  it('recognises the browsers’ and Vite’s chunk errors, and nothing else', () => {
    expect(isChunkLoadError(staleChunk)).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Проект не найден'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });

  it('reloads once; a second failure right after the reload does not reload again (no loop)', () => {
    const env = environment();
    expect(reloadOnceForNewVersion(env)).toBe(true);
    expect(env.reload).toHaveBeenCalledTimes(1);

    // The page after the reload: a fresh module state, the same sessionStorage.
    resetChunkReloadState();
    env.clock.now += 5_000;
    expect(reloadOnceForNewVersion(env)).toBe(false);
    expect(env.reload).toHaveBeenCalledTimes(1);

    // A later deploy, long after: reloading is right again.
    resetChunkReloadState();
    env.clock.now += RELOAD_GUARD_MS;
    expect(reloadOnceForNewVersion(env)).toBe(true);
    expect(env.reload).toHaveBeenCalledTimes(2);
  });

  it('never reloads automatically when sessionStorage is unavailable (no guard against loops)', () => {
    const env = { ...environment(), storage: null };
    expect(reloadOnceForNewVersion(env)).toBe(false);
    expect(env.reload).not.toHaveBeenCalled();
  });

  it("reloads on Vite's vite:preloadError event", () => {
    const env = environment();
    const target = new EventTarget();
    installChunkErrorRecovery(target as unknown as Window, env);
    const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: staleChunk });
    target.dispatchEvent(event);
    expect(env.reload).toHaveBeenCalledTimes(1);
    // The router's own reload-on-missing-chunk is told the error is handled: one reload, not two.
    expect(env.storage!.getItem(`tanstack_router_reload:${staleChunk.message}`)).toBe('1');
  });

  it('shows «loading the new version» while the reload runs', () => {
    render(<NewVersionNotice tryReload={() => true} reload={vi.fn()} />);
    expect(screen.getByRole('status')).toHaveTextContent('Загружаем новую версию приложения…');
  });

  it('shows a Russian message with «Обновить» when the reload was already tried, and the button reloads', async () => {
    const reload = vi.fn();
    render(<NewVersionNotice tryReload={() => false} reload={reload} />);
    expect(screen.getByRole('heading', { name: 'Вышла новая версия приложения' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Обновить' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('the route error screen shows that message, not the English browser error, for a stale chunk', () => {
    // The automatic reload already happened a moment ago.
    sessionStorage.setItem(CHUNK_RELOAD_STORAGE_KEY, String(Date.now()));
    render(<RouteError error={staleChunk} reset={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Вышла новая версия приложения');
    expect(screen.getByRole('alert')).not.toHaveTextContent('Failed to fetch');
    expect(screen.getByRole('button', { name: 'Обновить' })).toBeInTheDocument();
  });

  it('the route error screen keeps showing other errors with «Повторить»', () => {
    render(<RouteError error={new Error('Проект не найден')} reset={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Проект не найден');
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeInTheDocument();
  });
});
