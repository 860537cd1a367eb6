import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CookieBanner, COOKIE_CONSENT_KEY } from '@/components/layout/CookieBanner';
import { Footer, SUPPORT_CHAT_URL } from '@/components/layout/Footer';

afterEach(() => vi.useRealTimers());

describe('cookie banner', () => {
  const text = 'Мы используем на сайте куки. В интернете без них никак.';

  it('appears 1000 ms after load when consent is not given', () => {
    vi.useFakeTimers();
    render(<CookieBanner />);
    act(() => vi.advanceTimersByTime(999));
    expect(screen.queryByText(text)).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByText(text)).toBeInTheDocument();
  });

  it("remembers 'Согласен' under cookie_consent_given = 'true' and hides", () => {
    vi.useFakeTimers();
    render(<CookieBanner />);
    act(() => vi.advanceTimersByTime(1000));
    act(() => screen.getByRole('button', { name: 'Согласен' }).click());
    expect(screen.queryByText(text)).not.toBeInTheDocument();
    expect(COOKIE_CONSENT_KEY).toBe('cookie_consent_given');
    expect(localStorage.getItem('cookie_consent_given')).toBe('true');
  });

  it('never appears once consent is given', () => {
    vi.useFakeTimers();
    localStorage.setItem('cookie_consent_given', 'true');
    render(<CookieBanner />);
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.queryByText(text)).not.toBeInTheDocument();
  });

  it('does not appear if the page is left before the delay', () => {
    vi.useFakeTimers();
    const { unmount } = render(<CookieBanner />);
    unmount();
    expect(() => vi.advanceTimersByTime(2000)).not.toThrow();
  });
});

describe('footer', () => {
  it('links the support chat and the three documents of public/', () => {
    render(<Footer />);
    expect(screen.getByRole('link', { name: /Чат поддержки/ })).toHaveAttribute('href', SUPPORT_CHAT_URL);
    expect(SUPPORT_CHAT_URL).toMatch(/^https:\/\//);
    expect(screen.getByRole('link', { name: 'Пользовательское соглашение' })).toHaveAttribute('href', '/agreement.pdf');
    expect(screen.getByRole('link', { name: 'Политика обработки персональных данных' })).toHaveAttribute('href', '/policy.pdf');
    expect(screen.getByRole('link', { name: 'Публичная оферта' })).toHaveAttribute('href', '/oferta.pdf');
  });
});
