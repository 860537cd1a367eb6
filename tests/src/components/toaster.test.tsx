import { act, render, screen, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AppToaster,
  TOAST_DURATION_MS,
  TOAST_GAP_PX,
  TOAST_POSITION,
  TOAST_SWIPE_THRESHOLD_PX,
  TOAST_WIDTH_PX,
  TOASTS_VISIBLE,
} from '../../../src/components/layout/AppToaster';

afterEach(() => {
  act(() => {
    toast.dismiss();
  });
  vi.useRealTimers();
});

describe('toaster', () => {
  it('uses the constants of the spec', () => {
    expect([TOAST_POSITION, TOAST_DURATION_MS, TOASTS_VISIBLE, TOAST_WIDTH_PX, TOAST_GAP_PX, TOAST_SWIPE_THRESHOLD_PX]).toEqual([
      'top-right',
      4000,
      3,
      356,
      14,
      45,
    ]);
  });

  it('shows toasts top right, 356 px wide with a 14 px gap, rich colours and a close button', async () => {
    render(<AppToaster />);
    act(() => {
      toast.success('Сохранено');
    });
    const item = await screen.findByText('Сохранено');
    const list = item.closest('[data-sonner-toaster]') as HTMLElement;
    expect(list).toHaveAttribute('data-y-position', 'top');
    expect(list).toHaveAttribute('data-x-position', 'right');
    expect(list.style.getPropertyValue('--width')).toBe('356px');
    expect(list.style.getPropertyValue('--gap')).toBe('14px');
    const toastElement = item.closest('[data-sonner-toast]') as HTMLElement;
    expect(toastElement).toHaveAttribute('data-rich-colors', 'true');
    expect(within(toastElement).getByRole('button', { name: /close/i })).toBeInTheDocument();
  });

  it('closes a toast after 4000 ms', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render(<AppToaster />);
    act(() => {
      toast('Через четыре секунды исчезнет');
    });
    expect(await screen.findByText('Через четыре секунды исчезнет')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(3_900));
    expect(screen.getByText('Через четыре секунды исчезнет')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(screen.queryByText('Через четыре секунды исчезнет')).not.toBeInTheDocument();
  });

  it('shows at most 3 toasts at once', async () => {
    render(<AppToaster />);
    act(() => {
      for (let index = 1; index <= 5; index += 1) toast(`Сообщение ${index}`);
    });
    await screen.findByText('Сообщение 5');
    const visible = document.querySelectorAll('[data-sonner-toast][data-visible="true"]');
    expect(visible).toHaveLength(3);
  });
});
