import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import * as v from 'valibot';
import { ChangePlanSchema, knownPlanTypes, type AdminOrganizationDetail } from '@contract/admin.js';
import { FormErrorBox } from '@/components/ui/form';
import { formatDate, formatNumber, formatTokens } from '@contract/format';
import { planLabel } from '@contract/labels';
import { adminKeys, adminOrganizationQuery, changePlan } from './api';
import { CreditForm } from './CreditForm';
import { AdminBackLink, Details, QueryState, Table, type Column } from './components';

type Member = AdminOrganizationDetail['members'][number];
const roleLabels = { owner: 'Владелец', admin: 'Администратор', member: 'Участник' } as const;

/** One organization: its plan (changed here), its members with their balances, crediting a member. */
export function OrganizationDetailScreen({ organizationId }: { organizationId: string }) {
  const organization = useQuery(adminOrganizationQuery(organizationId));
  const [crediting, setCrediting] = useState<Member | null>(null);
  const data = organization.data;

  const columns: Column<Member>[] = [
    { label: 'Участник', cell: (member) => `${member.full_name} (${member.email})` },
    { label: 'Роль', cell: (member) => roleLabels[member.role] },
    { label: 'Баланс, токенов', cell: (member) => formatNumber(member.balance) },
    { label: 'Статус', cell: (member) => (member.blocked ? <span className="badge badge--danger">заблокирован</span> : 'активен') },
    { label: 'В организации с', cell: (member) => formatDate(member.joined_at) },
    {
      label: 'Действия',
      cell: (member) => (
        <button type="button" className="btn btn--secondary btn--small" onClick={() => setCrediting(member)} aria-label={`Начислить токены: ${member.email}`}>
          Начислить
        </button>
      ),
    },
  ];

  return (
    <div className="stack">
      <AdminBackLink to="/admin/organizations">Организации</AdminBackLink>
      <QueryState isPending={organization.isPending} error={organization.error} emptyText="" onRetry={() => void organization.refetch()}>
        {data && (
          <>
            <h1>{data.name}</h1>
            <Details
              rows={[
                ['Тариф', planLabel(data.plan_type)],
                ['Владелец', data.owner ? `${data.owner.full_name} (${data.owner.email})` : '—'],
                ['Участников', formatNumber(data.members_count)],
                ['Баланс участников', formatTokens(data.balance_total)],
                ['Создана', formatDate(data.created_at)],
              ]}
            />
            <PlanForm organization={data} />
            {crediting && <CreditForm key={crediting.id} user={crediting} onDone={() => setCrediting(null)} />}
            <section className="card">
              <h2 className="card__title">Участники</h2>
              <Table rows={data.members} columns={columns} caption="Участники организации" />
            </section>
          </>
        )}
      </QueryState>
    </div>
  );
}

function PlanForm({ organization }: { organization: AdminOrganizationDetail }) {
  const queryClient = useQueryClient();
  const [plan, setPlan] = useState(organization.plan_type);
  const [problem, setProblem] = useState<string | null>(null);
  // The plans offered, named in Russian; a plan set earlier outside the list stays selectable as it is.
  const choices: string[] = knownPlanTypes.includes(organization.plan_type as (typeof knownPlanTypes)[number]) ? [...knownPlanTypes] : [organization.plan_type, ...knownPlanTypes];
  const save = useMutation({
    mutationFn: (planType: string) => changePlan(organization.id, planType),
    onSuccess: async (answer) => {
      toast.success(`Тариф организации «${answer.name}»: ${planLabel(answer.plan_type)}`);
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error: Error) => setProblem(error.message),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = v.safeParse(ChangePlanSchema, { plan_type: plan });
    if (!parsed.success) {
      setProblem(parsed.issues[0]!.message);
      return;
    }
    setProblem(null);
    save.mutate(parsed.output.plan_type);
  };
  return (
    <form className="admin-panel stack" onSubmit={submit}>
      <h2 className="card__title">Тариф</h2>
      <FormErrorBox message={problem} />
      <div className="admin-filters">
        <label htmlFor="plan-type">Тариф организации</label>
        <select id="plan-type" className="input input--small" value={plan} onChange={(event) => setPlan(event.target.value)}>
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {planLabel(choice)}
            </option>
          ))}
        </select>
        <button type="submit" className="btn btn--primary btn--small" disabled={save.isPending || plan.trim() === organization.plan_type} aria-busy={save.isPending}>
          Сменить тариф
        </button>
      </div>
    </form>
  );
}
