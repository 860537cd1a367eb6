import { useState } from 'react';
import { appVersionMessages } from '@contract/messages.js';
import { reloadOnceForNewVersion } from '@/lib/chunk-reload';

/**
 * Shown in place of a screen whose code could not be loaded after a deploy: it reloads once into the
 * new version (showing «loading»), and if that was already tried, says so in Russian with «Обновить».
 */
export function NewVersionNotice({ reload = () => window.location.reload(), tryReload = () => reloadOnceForNewVersion() }: { reload?: () => void; tryReload?: () => boolean }) {
  const [reloading] = useState(tryReload);
  if (reloading) {
    return (
      <section className="page page--narrow state-card" role="status">
        <p className="muted">{appVersionMessages.reloading}</p>
      </section>
    );
  }
  return (
    <section className="page page--narrow state-card" role="alert">
      <h1>{appVersionMessages.title}</h1>
      <p className="muted">{appVersionMessages.text}</p>
      <button type="button" className="btn btn--primary" onClick={reload}>
        {appVersionMessages.reloadButton}
      </button>
    </section>
  );
}
