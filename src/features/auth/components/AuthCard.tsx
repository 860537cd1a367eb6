import { Link } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { session } from '@/app/session';

export const TAGLINE = 'Автоматизация работы с рекламными системами и рост ROI кампаний с помощью ИИ';

/** The centred card every auth screen sits in (these screens have no header). */
export function AuthCard({ title, children, footer }: { title?: string; children: ReactNode; footer?: ReactNode }) {
  // An error of another auth screen must not show up on this one.
  useEffect(() => session.clearError(), []);
  return (
    <section className="auth-page">
      <div className="auth-card">
        <Link to="/auth" className="auth-card__brand" aria-label="Reklama Lab">
          <img src="/logo.png" alt="" width={40} height={40} className="auth-card__logo" />
          <span className="auth-card__name">Reklama Lab</span>
        </Link>
        <p className="auth-card__tagline">{TAGLINE}</p>
        {title && <h1 className="auth-card__title">{title}</h1>}
        {children}
        {footer && <div className="auth-card__footer">{footer}</div>}
      </div>
    </section>
  );
}
