import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useMemo, useRef, useState } from 'react';
import type { Analysis } from '@contract/analysis.js';
import type { ProjectDetail, ProjectSettings } from '@contract/projects.js';
import { ThresholdFields } from '@/components/project-settings/ThresholdFields';
import { useWaitsForNetwork } from '@/components/ui/PageStates';
import { hasCustomThresholds, parseThresholds, thresholdTextsOf, type ThresholdErrors, type ThresholdTexts } from '@/components/project-settings/thresholds';
import type { CalculateCostRequest, CostResponse } from '@contract/tokens.js';
import { projectKeys, updateProject } from '@/lib/projects-api';
import { AUDIT_KINDS, costQueryOptions, insufficientBalanceOf, startAnalysis } from '@/features/analysis/api';
import { formatCount, formatRub, formatTokens, pluralRu } from '@/lib/analysis-format';
import { isPriceChanged, usePaidRunStart } from '@/lib/paid-runs';
import { PaidStartButton, PaidStartWaitHint } from '@/components/ui/PaidStartButton';
import { ShortBalanceNotice } from '@/components/ui/ShortBalanceNotice';

export const START_LABEL = 'Запустить анализ';
export const THRESHOLDS_SUMMARY = 'Настройки порогов';

interface Props {
  project: ProjectDetail;
  onStarted: (analysis: Analysis) => void;
}

/** /projects/{id}/analysis/new: campaigns, the price before paying and the start first; the thresholds folded below. */
export function NewAnalysisScreen({ project, onStarted }: Props) {
  const [texts, setTexts] = useState<ThresholdTexts>(() => thresholdTextsOf(project.settings));
  const [fieldErrors, setFieldErrors] = useState<ThresholdErrors>({});
  // Folded unless the project has thresholds of its own (then they matter for this run) or one is wrong.
  const thresholdsOpen = hasCustomThresholds(project.settings) || Object.keys(fieldErrors).length > 0;
  const [saveToProject, setSaveToProject] = useState(false);
  const queryClient = useQueryClient();
  // A second click before React re-renders the disabled button must not send a second request.
  const sending = useRef(false);

  // A change of the choice forgets a failed start (its message was about the previous choice).
  const { selected, chosen, allChosen, toggle, toggleAll } = useCampaignChoice(project.campaigns, () => start.reset());
  const { cost, priceOffline, price } = useAuditCost(project.campaigns, selected, chosen.length);
  const waitHintId = useId();

  const start = usePaidRunStart(
    async (idempotencyKey, settings: ProjectSettings, expectedCost) => {
      // Saved first: a start that fails later still leaves the thresholds the user chose in the project.
      if (saveToProject) {
        const updated = await updateProject(project.id, { settings });
        queryClient.setQueryData(projectKeys.detail(project.id), updated);
      }
      return startAnalysis(project.id, { campaign_ids: chosen.map((campaign) => campaign.id), settings, idempotency_key: idempotencyKey, expected_cost: expectedCost });
    },
    {
      price,
      onStarted,
      onPriceChanged: () => void cost.refetch(),
      onSettled: () => {
        sending.current = false;
      },
    },
  );

  const costShort = cost.data && !cost.data.sufficient && !cost.isPlaceholderData ? { required: cost.data.total, balance: cost.data.balance } : null;
  // The server's 402 wins: its amounts are the ones it actually checked.
  const shortBalance = insufficientBalanceOf(start.error) ?? costShort;
  const canStart = chosen.length > 0 && !start.isPending && !costShort;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (sending.current || chosen.length === 0 || start.wait) return;
    const { settings, errors } = parseThresholds(texts);
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    sending.current = true;
    start.mutate(settings);
  };

  return (
    <section className="page analysis-page analysis-new">
      <Link to="/projects/$id" params={{ id: project.id }} className="link back-link">
        ← {project.name}
      </Link>
      <header className="page-header">
        <h1>Новый анализ</h1>
      </header>

      {project.campaigns.length === 0 ? (
        <NoCampaigns projectId={project.id} />
      ) : (
        <form className="analysis-new__form" onSubmit={submit} noValidate>
          <CampaignPicker campaigns={project.campaigns} selected={selected} allChosen={allChosen} onToggle={toggle} onToggleAll={toggleAll} />

          <AuditPrice nothingChosen={chosen.length === 0} cost={cost} offline={priceOffline} />

          <StartProblems shortBalance={shortBalance} error={start.isError ? start.error : null} />

          <div className="analysis-actions">
            <PaidStartButton wait={start.wait} pending={start.isPending} disabled={!canStart} label={START_LABEL} hintId={waitHintId} />
            <Link to="/projects/$id/analysis/history" params={{ id: project.id }} className="btn btn--ghost">
              История анализов
            </Link>
          </div>
          <PaidStartWaitHint wait={start.wait} id={waitHintId} />
          {/* Money first: the price and the start above; the thresholds are for those who tune them. */}
          <ThresholdsCard
            project={project}
            open={thresholdsOpen}
            texts={texts}
            errors={fieldErrors}
            onChange={(key, value) => setTexts((current) => ({ ...current, [key]: value }))}
            saveToProject={saveToProject}
            onSaveToProjectChange={setSaveToProject}
          />
        </form>
      )}
    </section>
  );
}

/** Why the audit cannot start or did not: the balance is short (by the price or the server's 402), or the start failed. */
function StartProblems({ shortBalance, error }: { shortBalance: { required: number | null; balance: number | null } | null; error: Error | null }) {
  return (
    <>
      {shortBalance && (
        <ShortBalanceNotice
          detail={
            shortBalance.required !== null && shortBalance.balance !== null
              ? `Анализ стоит ${formatTokens(shortBalance.required)}, на балансе ${formatTokens(shortBalance.balance)}.`
              : 'Пополните баланс, чтобы запустить анализ.'
          }
        />
      )}
      {error && !insufficientBalanceOf(error) && (
        <p className="form-error" role="alert">
          {isPriceChanged(error)
            ? `Анализ не запущен: ${error.message}.`
            : `Анализ не запущен: ${error.message}. Нажмите «${START_LABEL}» ещё раз — повторный запрос не спишет токены дважды.`}
        </p>
      )}
    </>
  );
}

/** Nothing to analyse yet: the way back to the project, where campaigns are imported. */
function NoCampaigns({ projectId }: { projectId: string }) {
  return (
    <div className="state-card">
      <p>В проекте нет кампаний. Импортируйте кампании на странице проекта, чтобы запустить анализ.</p>
      <Link to="/projects/$id" params={{ id: projectId }} className="btn btn--primary">
        К проекту
      </Link>
    </div>
  );
}

/** Which campaigns the run takes (all at first); `onChange` is told of every change. */
function useCampaignChoice(campaigns: ProjectDetail['campaigns'], onChange: () => void) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set(campaigns.map((campaign) => campaign.id)));
  const chosen = campaigns.filter((campaign) => selected.has(campaign.id));
  const allChosen = chosen.length === campaigns.length;
  const toggle = (id: string) => {
    onChange();
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  const toggleAll = () => {
    onChange();
    setSelected(allChosen ? new Set() : new Set(campaigns.map((campaign) => campaign.id)));
  };
  return { selected, chosen, allChosen, toggle, toggleAll };
}

/** The server's price of the chosen campaigns. */
function useAuditCost(campaigns: ProjectDetail['campaigns'], selected: ReadonlySet<string>, chosenCount: number) {
  const costRequest = useMemo<CalculateCostRequest>(
    () => ({
      campaigns: campaigns.filter((campaign) => selected.has(campaign.id)).map((campaign) => ({
        id: campaign.id,
        name: campaign.name,
        keywords_count: campaign.keywords_count,
        ads_count: campaign.ads_count,
        groups_count: campaign.groups_count,
      })),
      analysis_kinds: [...AUDIT_KINDS],
    }),
    [selected, campaigns],
  );
  const cost = useQuery(costQueryOptions(costRequest));
  // Offline the price cannot be asked: the price area says so instead of «Считаем стоимость…» for ever.
  const priceOffline = useWaitsForNetwork(cost);
  // The price of the campaigns chosen now (not the previous choice's, kept on screen while this one is
  // computed). Nothing chosen waits for no price: the button keeps its label, disabled until a campaign is.
  const price = chosenCount === 0 ? 0 : cost.data && !cost.isPlaceholderData ? cost.data.total : null;
  return { cost, priceOffline, price };
}

interface ThresholdsCardProps {
  project: ProjectDetail;
  open: boolean;
  texts: ThresholdTexts;
  errors: ThresholdErrors;
  onChange: (key: keyof ThresholdTexts, value: string) => void;
  saveToProject: boolean;
  onSaveToProjectChange: (save: boolean) => void;
}

/** «Настройки порогов», folded: the project's target CPA and region, this run's thresholds, and whether to keep them. */
function ThresholdsCard({ project, open, texts, errors, onChange, saveToProject, onSaveToProjectChange }: ThresholdsCardProps) {
  return (
    <details className="card analysis-thresholds" open={open || undefined}>
      <summary className="card__title analysis-thresholds__summary">{THRESHOLDS_SUMMARY}</summary>
      <p className="muted">
        {project.target_cpa !== null
          ? `Целевая цена конверсии: ${formatRub(project.target_cpa)} (меняется в настройках проекта).`
          : 'Целевая цена конверсии не задана: фразы сравниваются с CPA своей кампании.'}
      </p>
      {project.region && <p className="muted">Регион проекта: {project.region}. Эти места не предлагаются в минус-слова как «другая география».</p>}
      <ThresholdFields values={texts} errors={errors} onChange={onChange} />
      <label className="checkbox">
        <input type="checkbox" checked={saveToProject} onChange={(event) => onSaveToProjectChange(event.target.checked)} />
        <span>Сохранить эти пороги в настройках проекта</span>
      </label>
    </details>
  );
}

function CampaignPicker({ campaigns, selected, allChosen, onToggle, onToggleAll }: { campaigns: ProjectDetail['campaigns']; selected: ReadonlySet<string>; allChosen: boolean; onToggle: (id: string) => void; onToggleAll: () => void }) {
  return (
    <fieldset className="card analysis-fieldset">
      <legend className="card__title">Кампании</legend>
      <label className="checkbox analysis-campaign analysis-campaign--all">
        <input type="checkbox" checked={allChosen} onChange={onToggleAll} />
        <span>Все кампании ({formatCount(campaigns.length)})</span>
      </label>
      <ul className="analysis-campaigns">
        {campaigns.map((campaign) => (
          <li key={campaign.id}>
            <label className="checkbox analysis-campaign">
              <input type="checkbox" checked={selected.has(campaign.id)} onChange={() => onToggle(campaign.id)} />
              <span className="analysis-campaign__text">
                <span className="analysis-campaign__name">{campaign.name}</span>
                <span className="muted analysis-campaign__counts">
                  {formatCount(campaign.groups_count)} {pluralRu(campaign.groups_count, ['группа', 'группы', 'групп'])} ·{' '}
                  {formatCount(campaign.ads_count)} {pluralRu(campaign.ads_count, ['объявление', 'объявления', 'объявлений'])} ·{' '}
                  {formatCount(campaign.keywords_count)} {pluralRu(campaign.keywords_count, ['фраза', 'фразы', 'фраз'])}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {selected.size === 0 && (
        <p className="field__error" role="alert">
          Выберите хотя бы одну кампанию
        </p>
      )}
    </fieldset>
  );
}

/** The price of the chosen campaigns, or why there is none yet (nothing chosen, offline, an error, computing). */
function AuditPrice({ nothingChosen, cost, offline }: { nothingChosen: boolean; cost: UseQueryResult<CostResponse, Error>; offline: boolean }) {
  return (
    <section className="card analysis-cost" aria-labelledby="analysis-cost-title" aria-live="polite">
      <h2 id="analysis-cost-title" className="card__title">
        Стоимость
      </h2>
      {nothingChosen ? (
        <p className="muted">Выберите кампании, чтобы увидеть стоимость.</p>
      ) : cost.data ? (
        <>
          <p className="analysis-cost__total" data-testid="analysis-cost">
            {formatTokens(cost.data.total)}
          </p>
          <p className="muted">На балансе: {formatTokens(cost.data.balance)}</p>
          <details className="analysis-cost__breakdown">
            <summary>Из чего складывается цена</summary>
            <ul>
              {cost.data.breakdown.map((line) => (
                <li key={line.index}>
                  <strong>{line.name ?? `Кампания ${line.index + 1}`}</strong>: {formatTokens(line.cost)}
                  <span className="muted"> ({line.items.map((item) => `${item.label} — ${item.amount}`).join('; ')})</span>
                </li>
              ))}
            </ul>
          </details>
        </>
      ) : cost.isError ? (
        <p className="form-error" role="alert">
          Не удалось рассчитать стоимость: {cost.error.message}
        </p>
      ) : offline ? (
        <p className="muted" role="status" data-testid="needs-network">
          Нет подключения к сети: стоимость посчитаем, когда связь появится.
        </p>
      ) : (
        <p className="muted">
          <span className="spinner" aria-hidden="true" /> Считаем стоимость…
        </p>
      )}
    </section>
  );
}
