/** The msw server and fixtures shared by the PWA-shell tests. */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Organization, User } from '@contract/auth.js';

/** The header's bell asks for the server's notifications on every screen: none unless a test says otherwise. */
export const noServerNotifications = http.get('*/api/v1/notifications', () => HttpResponse.json({ items: [], unread: 0 }));

export const server = setupServer(noServerNotifications);

/** Starts msw for the calling test file; unhandled requests fail the test loudly. */
export function useTestServer(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}

export const verifiedUser: User = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'anna@example.ru',
  first_name: 'Анна',
  last_name: 'Петрова',
  full_name: 'Анна Петрова',
  role: 'user',
  is_verified: true,
};

export const ownerOrganization: Organization = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Ромашка',
  plan_type: 'free',
  role: 'owner',
};

export const tokens = { access_token: 'access-1', refresh_token: 'refresh-1' };
