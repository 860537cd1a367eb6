import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useSession } from '@/app/session';
import { useDropdown } from '@/components/ui/useDropdown';
import { displayName, userInitials } from './initials';

export const MENU_ORGANIZATION = 'Организация';
export const MENU_ADMIN = 'Админка';
export const MENU_LOGOUT = 'Выйти';

/** Avatar with initials; the menu shows name and email, and the items the user's roles allow. */
export function UserMenu() {
  const { user, isOrganizationOwner, isAdmin, logout } = useSession();
  const navigate = useNavigate();
  const { open, toggle, close, containerRef, toggleRef } = useDropdown();
  const [leaving, setLeaving] = useState(false);

  if (!user) return null;
  const name = displayName(user);

  const onLogout = async () => {
    setLeaving(true);
    close();
    try {
      // The session clears tokens and state even when the server call fails.
      await logout();
    } finally {
      setLeaving(false);
      await navigate({ to: '/auth' });
    }
  };

  return (
    <div className="header-dropdown user-menu" ref={containerRef}>
      <button
        type="button"
        ref={toggleRef}
        className="user-menu__avatar"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={toggle}
      >
        {/* The name is the visible initials plus a hidden explanation (WCAG 2.5.3: the visible label is in the name). */}
        <span className="visually-hidden">Меню пользователя {name}: </span>
        {userInitials(user)}
      </button>
      {open && (
        <div className="header-dropdown__panel user-menu__panel" role="menu" aria-label="Меню пользователя">
          <div className="user-menu__who">
            <span className="user-menu__name">{name}</span>
            <span className="user-menu__email">{user.email}</span>
          </div>
          <Link to="/board" role="menuitem" className="user-menu__item" onClick={close}>
            Сводка по проектам
          </Link>
          {isOrganizationOwner && (
            <Link to="/organization" role="menuitem" className="user-menu__item" onClick={close}>
              {MENU_ORGANIZATION}
            </Link>
          )}
          {isAdmin && (
            <Link to="/admin" role="menuitem" className="user-menu__item" onClick={close}>
              {MENU_ADMIN}
            </Link>
          )}
          <button type="button" role="menuitem" className="user-menu__item user-menu__item--logout" onClick={onLogout} disabled={leaving}>
            {MENU_LOGOUT}
          </button>
        </div>
      )}
    </div>
  );
}
