import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// A stand-in for workbox-window's Workbox: records listeners so the test can play the worker's events.
const workboxMock = vi.hoisted(() => {
  const listeners = new Map<string, Array<(event: unknown) => void>>();
  return {
    listeners,
    messageSkipWaiting: vi.fn(),
    register: vi.fn(async () => undefined),
    emit(type: string, event: unknown = {}) {
      for (const listener of listeners.get(type) ?? []) listener(event);
    },
  };
});

vi.mock('workbox-window', () => ({
  Workbox: class {
    constructor(public url: string) {}
    addEventListener(type: string, listener: (event: unknown) => void) {
      workboxMock.listeners.set(type, [...(workboxMock.listeners.get(type) ?? []), listener]);
    }
    register = workboxMock.register;
    messageSkipWaiting = workboxMock.messageSkipWaiting;
  },
}));

import { UpdatePrompt } from '@/features/pwa/UpdatePrompt';
import { UpdatePromptView } from '@/features/pwa/UpdatePromptView';
import { dismissServiceWorkerPrompt } from '@/features/pwa/service-worker';

describe('update prompt', () => {
  it("shows 'Доступна новая версия' with an 'Обновить' button when an update waits", async () => {
    const onUpdate = vi.fn();
    render(<UpdatePromptView needRefresh offlineReady={false} onUpdate={onUpdate} onClose={() => undefined} />);
    expect(screen.getByText('Доступна новая версия')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Обновить' }));
    expect(onUpdate).toHaveBeenCalledTimes(1);
  });

  it('shows nothing when there is no update', () => {
    const { container } = render(<UpdatePromptView needRefresh={false} offlineReady={false} onUpdate={() => undefined} onClose={() => undefined} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('registers /sw.js through workbox-window, prompts when a new worker waits, and sends SKIP_WAITING on "Обновить"', async () => {
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: {} });
    render(<UpdatePrompt register />);
    // workbox-window is imported on demand, so the registration follows a moment later.
    await vi.waitFor(() => expect(workboxMock.register).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Доступна новая версия')).not.toBeInTheDocument();

    act(() => workboxMock.emit('waiting'));
    expect(await screen.findByText('Доступна новая версия')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Обновить' }));
    expect(workboxMock.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(workboxMock.listeners.get('controlling')).toHaveLength(1);
  });
});

describe('offline-ready notice', () => {
  // The worker state is module-wide (one registration per page): start from a quiet prompt.
  beforeEach(() => dismissServiceWorkerPrompt());

  it('tells the user the app works offline after the first install, then hides by itself', async () => {
    vi.useFakeTimers();
    try {
      Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: {} });
      render(<UpdatePrompt register />);
      act(() => workboxMock.emit('installed', { isUpdate: false }));
      expect(screen.getByText('Приложение готово к работе без сети')).toBeInTheDocument();
      act(() => vi.advanceTimersByTime(6000));
      expect(screen.queryByText('Приложение готово к работе без сети')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });
});
