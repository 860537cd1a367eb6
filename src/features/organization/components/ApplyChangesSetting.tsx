import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import type { ApplySettings } from '@contract/changes.js';
import { applySettingsQueryOptions, updateApplySettings } from '@/features/organization/api';

const choices: { value: ApplySettings['apply_changes_role']; label: string }[] = [
  { value: 'owner', label: 'Только владелец' },
  { value: 'admin', label: 'Владелец и администраторы' },
  { value: 'member', label: 'Все участники' },
];

/** Who may write changes to the ad accounts through the API and undo them (owner only by default). */
export function ApplyChangesSetting() {
  const queryClient = useQueryClient();
  const settings = useQuery(applySettingsQueryOptions());
  const save = useMutation({
    mutationFn: updateApplySettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(applySettingsQueryOptions().queryKey, saved);
      toast.success('Настройка сохранена');
    },
    onError: (error) => toast.error(error.message),
  });
  if (!settings.data) return null;
  return (
    <section className="card organization-card" aria-labelledby="apply-changes-title">
      <h2 id="apply-changes-title" className="card__title">
        Изменения в рекламных аккаунтах
      </h2>
      <label className="field">
        <span className="field__label">Кто может применять изменения через API Директа и отменять их</span>
        <select
          className="select"
          value={settings.data.apply_changes_role}
          disabled={save.isPending}
          onChange={(event) => save.mutate({ apply_changes_role: event.target.value as ApplySettings['apply_changes_role'] })}
        >
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}
