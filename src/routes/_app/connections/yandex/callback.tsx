import { createFileRoute } from '@tanstack/react-router';
import type { OAuthCallback } from '@contract/direct-connections.js';
import { DirectConnectionCallback } from '@/features/projects/components/DirectConnectionCallback';

/** The router reads `?code=7852723` as a number: every value is the text Yandex ID sent. */
const textOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value).slice(0, 1000) : undefined);

/** Yandex ID's redirect address (YANDEX_OAUTH_REDIRECT_URL): `?code=…&state=…` or `?error=…&state=…`. */
export const Route = createFileRoute('/_app/connections/yandex/callback')({
  validateSearch: (search: Record<string, unknown>): OAuthCallback => ({
    state: textOf(search.state) ?? '',
    code: textOf(search.code),
    error: textOf(search.error),
    error_description: textOf(search.error_description),
  }),
  component: CallbackRoute,
});

function CallbackRoute() {
  return <DirectConnectionCallback callback={Route.useSearch()} />;
}
