import { useQuery } from '@tanstack/react-query';
import { useEffect, type CSSProperties } from 'react';
import { severityLabels } from '@contract/analysis-results.js';
import { formatCount, formatDate, formatRub, formatRubPerMonth } from '@contract/format';
import { reportCausesOf, reportChangeLine, reportMoneyLines, reportSubtitle, reportWording as w, type ClientReport } from '@contract/reports.js';
import { ApiError } from '@/lib/api-client';
import { sharedReportQueryOptions } from '@/lib/reports-api';
import './reports.css';

/** Keeps the page out of search engines while it is open (the server's X-Robots-Tag says the same to crawlers that run no script). */
function useNoIndex(): void {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

/**
 * /r/{token}: the read-only report behind a share link, for someone without an account. White-label: the
 * organization's name, logo and colour, none of the product's header or footer, nothing of the
 * organization beyond the report.
 */
export function SharedReportScreen({ token }: { token: string }) {
  useNoIndex();
  const query = useQuery(sharedReportQueryOptions(token));
  useEffect(() => {
    if (query.data) document.title = `${w.title}: ${query.data.report.projectName}`;
  }, [query.data]);
  if (query.isPending) return <p className="page shared-report__state muted">Загрузка отчёта…</p>;
  if (query.isError) {
    const message = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 410) ? query.error.message : 'Не удалось загрузить отчёт. Проверьте соединение и обновите страницу.';
    return (
      <section className="page page--narrow state-card shared-report__state" role="alert">
        <h1>Отчёт недоступен</h1>
        <p>{message}</p>
      </section>
    );
  }
  return <ClientReportView report={query.data.report} expiresAt={query.data.expires_at} />;
}

function ClientReportView({ report, expiresAt }: { report: ClientReport; expiresAt: string }) {
  const accent = { '--report-accent': report.brand.accentColor } as CSSProperties;
  return (
    <article className="page shared-report" style={accent} data-testid="shared-report">
      <header className="shared-report__brand">
        {report.brand.logo && <img src={report.brand.logo} alt="" className="shared-report__logo" />}
        <span className="shared-report__brand-name" data-testid="report-brand">
          {report.brand.name}
        </span>
      </header>
      <h1 className="shared-report__title">{w.title}</h1>
      <p className="shared-report__project">{report.projectName}</p>
      <p className="muted">
        {reportSubtitle(report)} · аудит от {formatDate(report.auditedAt)}
      </p>
      <MoneySection report={report} />
      <section className="shared-report__section" aria-labelledby="report-score">
        <h2 id="report-score">{w.score}</h2>
        <p className="shared-report__score">
          <strong data-testid="report-score">{report.score}</strong> из 100
        </p>
        <div className="shared-report__track" aria-hidden="true">
          <span style={{ width: `${Math.max(2, report.score)}%` }} />
        </div>
        <p className="muted">Замечаний: {formatCount(report.findingsTotal)}. 100 — аудит ничего не нашёл.</p>
      </section>
      {report.changes && <ChangesSection changes={report.changes} />}
      {report.trend.length >= 2 && <TrendSection trend={report.trend} />}
      <FindingsSection findings={report.findings} />
      <PlanSection plan={report.plan} />
      <footer className="shared-report__footer muted">
        <p>{w.footer}</p>
        <p>Ссылка действует до {formatDate(expiresAt)}.</p>
      </footer>
    </article>
  );
}

function MoneySection({ report }: { report: ClientReport }) {
  const lines = reportMoneyLines(report);
  const lost = report.money ? reportCausesOf(report.money, 'lost') : [];
  const saving = report.money ? reportCausesOf(report.money, 'saving') : [];
  const hasLoss = Math.round(report.money ? report.money.perMonth : report.wastedPerMonth) > 0;
  return (
    <section className="shared-report__section" aria-labelledby="report-money">
      <h2 id="report-money">{w.money}</h2>
      {/* «No losses» is good news: not in the alarm colour of a loss (as on the results screen). */}
      <p className={hasLoss ? 'shared-report__money' : 'shared-report__money shared-report__money--none'} data-testid="report-money">
        {lines.headline}
      </p>
      {lines.note && <p className="muted">{lines.note}</p>}
      <CauseBars label={w.causes} causes={lost} tone="loss" />
      {lines.saving && <p>{lines.saving}</p>}
      <CauseBars label={w.savingCauses} causes={saving} tone="accent" />
    </section>
  );
}

function CauseBars({ label, causes, tone }: { label: string; causes: ReturnType<typeof reportCausesOf>; tone: 'loss' | 'accent' }) {
  if (causes.length === 0) return null;
  const max = Math.max(...causes.map((cause) => cause.perMonth), 1);
  return (
    <>
      <h3 className="shared-report__subheading">{label}</h3>
      <ul className="shared-report__bars" data-testid="report-causes">
        {causes.map((cause) => (
          <li key={cause.label}>
            <span className="shared-report__bar-label">{cause.label}</span>
            <strong className="shared-report__bar-value">{formatRubPerMonth(cause.perMonth)}</strong>
            <span className="shared-report__track" aria-hidden="true">
              <span className={`shared-report__fill--${tone}`} style={{ width: `${Math.max(2, (cause.perMonth / max) * 100)}%` }} />
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

function ChangesSection({ changes }: { changes: NonNullable<ClientReport['changes']> }) {
  const line = reportChangeLine;
  return (
    <section className="shared-report__section" aria-labelledby="report-changes">
      <h2 id="report-changes">
        {w.changes} ({formatDate(changes.previousDate)})
      </h2>
      {changes.fixed.length === 0 && <p className="muted">{w.nothingFixed}</p>}
      <ul>
        {changes.fixed.map((item) => (
          <li key={item.title}>✓ {line(item)}</li>
        ))}
      </ul>
      {changes.appeared.length > 0 && (
        <>
          <h3 className="shared-report__subheading">Появилось нового</h3>
          <ul>
            {changes.appeared.map((item) => (
              <li key={item.title}>{line(item)}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function TrendSection({ trend }: { trend: ClientReport['trend'] }) {
  const max = Math.max(...trend.map((point) => point.moneyPerMonth ?? 0), 1);
  return (
    <section className="shared-report__section" aria-labelledby="report-trend">
      <h2 id="report-trend">{w.trend}</h2>
      <ul className="shared-report__bars">
        {trend.map((point) => (
          <li key={point.date}>
            <span className="shared-report__bar-label">
              {formatDate(point.date)}
              {point.score !== null && ` · оценка ${point.score}`}
            </span>
            <strong className="shared-report__bar-value">{point.moneyPerMonth === null ? '—' : formatRub(point.moneyPerMonth)}</strong>
            <span className="shared-report__track" aria-hidden="true">
              <span className="shared-report__fill--accent" style={{ width: `${Math.max(2, ((point.moneyPerMonth ?? 0) / max) * 100)}%` }} />
            </span>
          </li>
        ))}
      </ul>
      <p className="muted">Потери в месяц по каждому аудиту и оценка аккаунта.</p>
    </section>
  );
}

function FindingsSection({ findings }: { findings: ClientReport['findings'] }) {
  return (
    <section className="shared-report__section" aria-labelledby="report-findings">
      <h2 id="report-findings">{w.findings}</h2>
      {findings.length === 0 ? (
        <p className="muted">{w.noFindings}</p>
      ) : (
        <ol className="shared-report__findings">
          {findings.map((finding, index) => (
            <li key={index}>
              <strong>{finding.title}</strong>
              <p className="muted">
                {[severityLabels[finding.severity], finding.place, finding.count ? `мест: ${formatCount(finding.count)}` : null, finding.moneyPerMonth ? formatRubPerMonth(finding.moneyPerMonth) : null]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              <p className="shared-report__fix">
                {w.fix}: {finding.fix}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function PlanSection({ plan }: { plan: ClientReport['plan'] }) {
  return (
    <section className="shared-report__section" aria-labelledby="report-plan">
      <h2 id="report-plan">{plan.source === 'ai' ? w.aiPlan : w.plan}</h2>
      {plan.summary && <p>{plan.summary}</p>}
      <ol className="shared-report__findings">
        {plan.steps.map((step, index) => (
          <li key={index}>
            <strong>
              {step.title}
              {step.moneyPerMonth ? ` — ${formatRubPerMonth(step.moneyPerMonth)}` : ''}
            </strong>
            {step.detail && <p>{step.detail}</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}
