import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/app/session';
import { ownerOrganization, server, useTestServer, verifiedUser } from '../lib/test-server';
import { resetSession, signIn } from '../routes/router-harness';
import { renderAt } from './render-app';

useTestServer();
beforeEach(() => {
  resetSession();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.useRealTimers());

const unverifiedUser = { ...verifiedUser, is_verified: false };

describe('/auth/verify-email', () => {
  it('posts the token from the link, shows the answer, marks the user verified, then goes to /projects', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(unverifiedUser, ownerOrganization);
    let posted: unknown;
    server.use(
      http.post('/api/v1/auth/verify-email', async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ message: 'Email подтверждён', user: verifiedUser });
      }),
    );
    const { router } = await renderAt('/auth/verify-email?token=abc123');
    expect(await screen.findByText(/Email подтверждён/)).toBeInTheDocument();
    expect(posted).toEqual({ token: 'abc123' });
    expect(session.getState().needsEmailVerification).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'));
  });

  // Registration starts no session (issue 27): the person follows the link signed out, then signs in.
  it('verifies a guest, says to sign in, then goes to /auth', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    server.use(http.post('/api/v1/auth/verify-email', () => HttpResponse.json({ message: 'Email подтверждён', user: verifiedUser })));
    const { router } = await renderAt('/auth/verify-email?token=abc123');
    expect(await screen.findByText('Email подтверждён. Теперь войдите со своим email и паролем.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Войти' })).toHaveAttribute('href', '/auth');
    await act(() => vi.advanceTimersByTimeAsync(3000));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
  });

  it("shows the server's refusal for a bad link", async () => {
    server.use(
      http.post('/api/v1/auth/verify-email', () => HttpResponse.json({ error: 'Ссылка недействительна или устарела', code: 'TOKEN_INVALID' }, { status: 400 })),
    );
    await renderAt('/auth/verify-email?token=old');
    expect(await screen.findByRole('alert')).toHaveTextContent('Ссылка недействительна или устарела');
  });

  const expiredLink = (resent: unknown[]) =>
    server.use(
      http.post('/api/v1/auth/verify-email', () => HttpResponse.json({ error: 'Ссылка недействительна или устарела', code: 'TOKEN_INVALID' }, { status: 400 })),
      http.post('/api/v1/auth/resend-verification', async ({ request }) => {
        resent.push(await request.json());
        return HttpResponse.json({ message: 'Письмо отправлено' });
      }),
    );

  it('offers a guest with an expired link a new one to the address they type, not «Перейти к проектам»', async () => {
    const resent: unknown[] = [];
    expiredLink(resent);
    const user = userEvent.setup();
    await renderAt('/auth/verify-email?token=old');
    expect(await screen.findByRole('alert')).toHaveTextContent('устарела');
    expect(screen.queryByRole('link', { name: 'Перейти к проектам' })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Email, указанный при регистрации'), 'ivan@example.ru');
    await user.click(screen.getByRole('button', { name: 'Отправить новую ссылку' }));
    expect(await screen.findByText('Письмо отправлено')).toBeInTheDocument();
    expect(resent).toEqual([{ email: 'ivan@example.ru' }]);
  });

  it('sends a logged-in unverified user a new link with one press', async () => {
    const resent: unknown[] = [];
    expiredLink(resent);
    signIn(unverifiedUser, ownerOrganization);
    const user = userEvent.setup();
    await renderAt('/auth/verify-email?token=old');
    expect(await screen.findByRole('alert')).toHaveTextContent('устарела');
    expect(screen.queryByLabelText('Email, указанный при регистрации')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Отправить новую ссылку' }));
    expect(await screen.findByText('Письмо отправлено')).toBeInTheDocument();
    expect(resent).toEqual([{}]);
  });

  it('says the link is broken when it has no token', async () => {
    await renderAt('/auth/verify-email');
    expect(await screen.findByRole('alert')).toHaveTextContent('Ссылка недействительна');
  });
});

describe('/auth/verify-email-required', () => {
  it('resends the verification mail and confirms it in a toast', async () => {
    signIn(unverifiedUser, ownerOrganization);
    let resent = 0;
    server.use(
      http.post('/api/v1/auth/resend-verification', () => {
        resent += 1;
        return HttpResponse.json({ message: 'Письмо с подтверждением отправлено' });
      }),
    );
    await renderAt('/auth/verify-email-required');
    expect(await screen.findByText(unverifiedUser.email)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Отправить письмо ещё раз' }));
    expect(await screen.findByText('Письмо с подтверждением отправлено')).toBeInTheDocument();
    expect(resent).toBe(1);
  });

  it('lets a user who verified elsewhere continue to /projects', async () => {
    signIn(unverifiedUser, ownerOrganization);
    server.use(http.get('/api/v1/auth/me', () => HttpResponse.json(verifiedUser)));
    const { router } = await renderAt('/auth/verify-email-required');
    await userEvent.click(await screen.findByRole('button', { name: 'Я уже подтвердил email' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/projects'));
  });
});

describe('password reset', () => {
  it('/auth/reset-password sends the email and shows the answer', async () => {
    const user = userEvent.setup();
    let posted: unknown;
    server.use(
      http.post('/api/v1/auth/reset-password', async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ message: 'Если такой email зарегистрирован, мы отправили на него ссылку для восстановления пароля' });
      }),
    );
    await renderAt('/auth/reset-password');
    await user.type(await screen.findByLabelText('Email'), 'anna@example.ru');
    const submit = screen.getByRole('button', { name: 'Отправить ссылку' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByText(/мы отправили на него ссылку/)).toBeInTheDocument();
    expect(posted).toEqual({ email: 'anna@example.ru' });
  });

  it("/auth/reset-password shows 'Ошибка при запросе восстановления пароля' when the server gives no message", async () => {
    const user = userEvent.setup();
    server.use(http.post('/api/v1/auth/reset-password', () => new HttpResponse(null, { status: 500 })));
    await renderAt('/auth/reset-password');
    await user.type(await screen.findByLabelText('Email'), 'anna@example.ru');
    const submit = screen.getByRole('button', { name: 'Отправить ссылку' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByTestId('form-error')).toHaveTextContent('Ошибка при запросе восстановления пароля');
  });

  it('/auth/reset-password/confirm sets the new password with the token from the link', async () => {
    const user = userEvent.setup();
    let posted: unknown;
    server.use(
      http.post('/api/v1/auth/reset-password/confirm', async ({ request }) => {
        posted = await request.json();
        return HttpResponse.json({ message: 'Пароль изменён' });
      }),
    );
    await renderAt('/auth/reset-password/confirm?token=tok-1');
    await user.type(await screen.findByLabelText('Новый пароль'), 'NewSecret1');
    await user.type(screen.getByLabelText('Повторите пароль'), 'NewSecret2');
    await user.tab();
    expect(await screen.findByText('Пароли не совпадают')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Повторите пароль'));
    await user.type(screen.getByLabelText('Повторите пароль'), 'NewSecret1');
    const submit = screen.getByRole('button', { name: 'Сохранить пароль' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByText(/Пароль изменён/)).toBeInTheDocument();
    expect(posted).toEqual({ token: 'tok-1', password: 'NewSecret1' });
  });
});
