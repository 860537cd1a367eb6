/** How the tests of a signed-in screen start. */
import { http, HttpResponse, type RequestHandler } from 'msw';
import { vi } from 'vitest';
import { resetSession, signIn } from '../routes/router-harness';
import { ownerOrganization, server, verifiedUser } from './test-server';

/**
 * A fresh session of the verified owner, React's logged errors (expected in failure tests) kept out of the
 * output, and msw answering the screen's own requests (`handlers`) and the header's balance: 100 tokens
 * unless one of `handlers` answers it.
 */
export function signInOwner(...handlers: RequestHandler[]): void {
  resetSession();
  signIn(verifiedUser, ownerOrganization);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  server.use(...handlers, http.get('/api/v1/tokens/balance', () => HttpResponse.json({ balance: 100 })));
}
