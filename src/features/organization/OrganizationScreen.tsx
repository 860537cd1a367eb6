import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useSession } from '@/app/session';
import { currentOrganizationQueryOptions, planTypeOf } from './api';
import { BrandingCard } from './components/BrandingCard';
import { InvitationCodeCard } from './components/InvitationCodeCard';
import { MemberList } from './components/MemberList';
import { QueryError } from '@/components/ui/QueryError';
import './organization.css';
import { planLabel, roleLabel } from '@contract/labels';
import { LoadingLine, notSavedOffline } from '@/components/ui/PageStates';

/** /organization (owner only, guarded by the route): name and plan, invitation code, members. */
export function OrganizationScreen() {
  const { user } = useSession();
  const organization = useQuery(currentOrganizationQueryOptions());

  return (
    <section className="page organization-page">
      <div className="page-header">
        <div>
          <p className="muted organization-page__kicker">Организация</p>
          <h1>{organization.data?.name ?? 'Организация'}</h1>
        </div>
        <Link to="/organization/settings" className="btn btn--secondary btn--small">
          Настройки
        </Link>
      </div>

      <LoadingLine query={organization} label="Загрузка организации…" offlineText={notSavedOffline('данные организации')} />
      {organization.isError && <QueryError error={organization.error} onRetry={() => void organization.refetch()} />}
      {organization.data && (
        <dl className="details card organization-card">
          <div className="details__row">
            <dt>Название</dt>
            <dd>{organization.data.name}</dd>
          </div>
          <div className="details__row">
            <dt>Тариф</dt>
            <dd>
              <span className="badge" data-testid="plan-type">
                {planLabel(planTypeOf(organization.data))}
              </span>
            </dd>
          </div>
          {organization.data.role && (
            <div className="details__row">
              <dt>Ваша роль</dt>
              <dd>{roleLabel(organization.data.role)}</dd>
            </div>
          )}
        </dl>
      )}

      <div className="organization-page__grid">
        <InvitationCodeCard />
        <MemberList currentUserId={user?.id ?? null} />
        <BrandingCard />
      </div>
    </section>
  );
}
