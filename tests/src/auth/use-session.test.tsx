import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { sessionStateAtom, sessionStore, useSession } from '@/app/session';
import { ownerOrganization, verifiedUser } from '../lib/test-server';

function Probe() {
  const s = useSession();
  return (
    <p>
      {s.isAuthenticated ? `вошла ${s.user?.first_name}` : 'гость'} | owner={String(s.isOrganizationOwner)} | admin={String(s.isAdmin)} | adminOrOwner=
      {String(s.isAdminOrOwner)}
    </p>
  );
}

beforeEach(() => sessionStore.set(sessionStateAtom, { user: null, organization: null, loading: false, error: null, initialized: true, offline: false }));

describe('useSession', () => {
  it('gives components the state and flags, and re-renders them when the session changes outside React', () => {
    render(<Probe />);
    expect(screen.getByText(/гость/)).toHaveTextContent('owner=false | admin=false');
    act(() => sessionStore.set(sessionStateAtom, { ...sessionStore.get(sessionStateAtom), user: verifiedUser, organization: ownerOrganization }));
    expect(screen.getByText(/вошла Анна/)).toHaveTextContent('owner=true | admin=false | adminOrOwner=true');
  });
});
