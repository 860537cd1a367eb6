import { createFileRoute } from '@tanstack/react-router';
import { TokensPage } from '../../features/tokens/TokensPage';

/** Token management, linked from the header's balance indicator (auth guard in ../_app.tsx). */
export const Route = createFileRoute('/_app/tokens')({
  component: TokensPage,
});
