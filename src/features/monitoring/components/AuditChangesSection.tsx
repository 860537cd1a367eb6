import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import {
  changeStatusLabels,
  changeStatuses,
  type AuditChange,
  type AuditChanges,
  type AuditTrendPoint,
} from "@contract/audit-changes.js";
import { formatDate, formatRub } from "@contract/format";
import {
  auditChangesQueryOptions,
  auditTrendQueryOptions,
} from "@/lib/audit-changes-api";
import { LoadingLine } from "@/components/ui/PageStates";
import { formatMoneyChange, formatScore } from "@/features/monitoring/format";
import { TrendChart } from "./TrendChart";
import "@/features/monitoring/monitoring.css";

/**
 * The project page's «Что изменилось»: the money figure and score over every audit (two small charts),
 * and the comparison of two audits (the last two unless the person picks others), grouped by status.
 */
export function AuditChangesSection({ projectId }: { projectId: string }) {
  const trend = useQuery(auditTrendQueryOptions(projectId));
  const audits = trend.data?.audits ?? [];
  if (trend.isPending)
    return (
      <LoadingLine
        query={trend}
        label="Загрузка истории анализов…"
        offlineText="История анализов загрузится, когда появится связь."
      />
    );
  if (audits.length === 0) return null;
  return (
    <section
      className="card audit-changes"
      aria-labelledby="audit-changes-title"
    >
      <div className="card__header">
        <h2 className="card__title" id="audit-changes-title">
          Что изменилось
        </h2>
      </div>
      {audits.length < 2 ? (
        // One point is not a trend: two near-empty charts would only look broken.
        <>
          <p data-testid="audit-changes-single">
            Анализ {formatDate(audits[0]!.created_at)}: потери{" "}
            {audits[0]!.money_per_month === null
              ? "не оценены"
              : `≈ ${formatRub(audits[0]!.money_per_month)} в месяц`}
            , оценка {formatScore(audits[0]!.score)}.
          </p>
          <p className="muted">
            График появится после второго анализа, а с ним и сравнение: что
            исправлено, что появилось нового.
          </p>
        </>
      ) : (
        <>
          <div className="audit-changes__charts">
            <TrendChart
              title="Потери, ₽ в месяц"
              points={audits.map((audit) => ({
                date: audit.created_at,
                value: audit.money_per_month,
              }))}
              format={formatRub}
            />
            <TrendChart
              title="Оценка аккаунта"
              tone="score"
              range={[0, 100]}
              points={audits.map((audit) => ({
                date: audit.created_at,
                value: audit.score,
              }))}
              format={formatScore}
            />
          </div>
          <Comparison projectId={projectId} audits={audits} />
        </>
      )}
    </section>
  );
}

function Comparison({
  projectId,
  audits,
}: {
  projectId: string;
  audits: AuditTrendPoint[];
}) {
  const [from, setFrom] = useState(audits[audits.length - 2]!.id);
  const [to, setTo] = useState(audits[audits.length - 1]!.id);
  const changes = useQuery({
    ...auditChangesQueryOptions(projectId, from, to),
    enabled: from !== to,
  });
  const option = (audit: AuditTrendPoint) => (
    <option key={audit.id} value={audit.id}>
      {formatDate(audit.created_at)} · {formatScore(audit.score)}
    </option>
  );
  return (
    <>
      <div className="audit-changes__pick">
        <label className="audit-changes__select">
          <span>Было</span>
          <select
            className="select"
            value={from}
            onChange={(event) => setFrom(event.target.value)}
          >
            {audits.map(option)}
          </select>
        </label>
        <label className="audit-changes__select">
          <span>Стало</span>
          <select
            className="select"
            value={to}
            onChange={(event) => setTo(event.target.value)}
          >
            {audits.map(option)}
          </select>
        </label>
      </div>
      {from === to ? (
        <p className="muted">Выберите два разных анализа.</p>
      ) : changes.error ? (
        <p className="state-card state-card--error" role="alert">
          {changes.error.message}
        </p>
      ) : changes.data ? (
        <ChangeList projectId={projectId} result={changes.data} />
      ) : (
        <LoadingLine
          query={changes}
          label="Сравниваем анализы…"
          offlineText="Сравнение загрузится, когда появится связь."
        />
      )}
    </>
  );
}

function ChangeList({
  projectId,
  result,
}: {
  projectId: string;
  result: AuditChanges;
}) {
  const moneyChange =
    result.moneyBefore !== null && result.moneyAfter !== null
      ? result.moneyAfter - result.moneyBefore
      : null;
  return (
    <>
      <dl className="stat-grid audit-changes__totals">
        <div className="stat">
          <dt className="stat__label">Потери: было → стало</dt>
          <dd className="stat__value">
            {result.moneyBefore === null ? "—" : formatRub(result.moneyBefore)}{" "}
            → {result.moneyAfter === null ? "—" : formatRub(result.moneyAfter)}
          </dd>
          {moneyChange !== null && (
            <dd
              className={
                moneyChange > 0
                  ? "money-change money-change--worse"
                  : "money-change money-change--better"
              }
            >
              {formatMoneyChange(moneyChange)}
            </dd>
          )}
        </div>
        <div className="stat">
          <dt className="stat__label">Оценка: было → стало</dt>
          <dd className="stat__value">
            {formatScore(result.scoreBefore)} → {formatScore(result.scoreAfter)}
          </dd>
        </div>
      </dl>
      {changeStatuses.map((status) => {
        const items = result.changes.filter(
          (change) => change.status === status,
        );
        const total = result.counts[status] ?? 0;
        if (total === 0) return null;
        return (
          <section
            key={status}
            className={`change-group change-group--${status}`}
            aria-label={changeStatusLabels[status]}
          >
            <h3 className="change-group__title">
              {changeStatusLabels[status]}{" "}
              <span className="badge badge--muted">{total}</span>
            </h3>
            <ul className="plain-list change-group__list">
              {items.map((change, index) => (
                <ChangeItem
                  key={`${change.currentFindingId ?? change.previousFindingId}-${index}`}
                  projectId={projectId}
                  change={change}
                  result={result}
                />
              ))}
            </ul>
            {items.length < total && (
              <p className="muted">
                Показаны первые {items.length} из {total}: самые крупные по
                деньгам.
              </p>
            )}
          </section>
        );
      })}
    </>
  );
}

/** One change: the finding, its entity, the money moved, and a link to it in the audit that has it. */
function ChangeItem({
  projectId,
  change,
  result,
}: {
  projectId: string;
  change: AuditChange;
  result: AuditChanges;
}) {
  const analysisId = change.currentFindingId ? result.to.id : result.from.id;
  const ownLabel = change.entityLabel.split(" › ").at(-1) ?? "";
  return (
    <li className="change-item">
      <div className="change-item__what">
        <strong>{change.title}</strong>
        <span className="muted change-item__entity">{change.entityLabel}</span>
      </div>
      <div className="change-item__money">
        {change.moneyBefore === 0 && change.moneyAfter === 0 ? (
          <span className="muted">без оценки в деньгах</span>
        ) : (
          <span
            className={
              change.moneyChange > 0
                ? "money-change money-change--worse"
                : change.moneyChange < 0
                  ? "money-change money-change--better"
                  : "money-change"
            }
          >
            {formatMoneyChange(change.moneyChange)}
          </span>
        )}
        <Link
          to="/projects/$id/analysis/$analysisId/results"
          params={{ id: projectId, analysisId }}
          search={{ check: [change.checkId], text: ownLabel || undefined }}
          className="link"
        >
          {change.currentFindingId ? "К находке" : "Как было"}
        </Link>
      </div>
    </li>
  );
}
