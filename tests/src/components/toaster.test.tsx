import { act, fireEvent, render, screen, within } from '@testing-library/react';
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
} from '@/components/layout/AppToaster';

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

  it.each([
    [44, true],
    [46, false],
  ])('a slow swipe to the right of %i px keeps the toast: %s (threshold 45 px)', async (distance, stays) => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    // jsdom has no pointer capture; sonner asks for it on every press.
    Element.prototype.setPointerCapture ??= () => undefined;
    render(<AppToaster />);
    act(() => {
      toast('Смахните меня', { duration: Infinity });
    });
    const element = (await screen.findByText('Смахните меня')).closest('[data-sonner-toast]') as HTMLElement;
    act(() => {
      fireEvent.pointerDown(element, { clientX: 100, clientY: 100, button: 0, pointerId: 1 });
    });
    // A first small move locks the direction (horizontal), the next one carries the toast along.
    act(() => {
      fireEvent.pointerMove(element, { clientX: 105, clientY: 100, pointerId: 1 });
    });
    act(() => {
      fireEvent.pointerMove(element, { clientX: 100 + distance, clientY: 100, pointerId: 1 });
    });
    expect(element.style.getPropertyValue('--swipe-amount-x')).toBe(`${distance}px`);
    // Slowly: a full second, so the speed (under 0.11 px/ms) does not dismiss it, only the distance can.
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    act(() => {
      fireEvent.pointerUp(element, { clientX: 100 + distance, clientY: 100, pointerId: 1 });
    });
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    if (stays) expect(screen.getByText('Смахните меня')).toBeInTheDocument();
    else expect(screen.queryByText('Смахните меня')).not.toBeInTheDocument();
  });
});
