import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { router } from './app/router';
import { session, setSessionNavigator } from '@/app/session';
import { installChunkErrorRecovery } from '@/lib/chunk-reload';
import { setUnauthorizedHandler } from './lib/api-client';
import './styles/index.css';
// Russian for valibot's own messages in every form (the contract modules load it too; this makes it explicit).
import '@contract/validation-language';

// A deploy while the app is open: a chunk of the old build that is gone reloads once into the new one.
installChunkErrorRecovery();

// Session moves go through the router (no full page reload).
setSessionNavigator((to) => {
  void router.navigate({ to });
});
// A failed refresh: forget the session and go to /auth.
setUnauthorizedHandler(() => {
  session.clearLocal();
  if (router.state.location.pathname !== '/auth') void router.navigate({ to: '/auth', replace: true });
});

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing in index.html');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
