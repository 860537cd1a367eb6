import type { AiPlanResult } from '@contract/ai-plan.js';
import { severityLabels } from '@contract/analysis-results.js';
import { formatRubPerMonth } from '@/lib/analysis-format';

/** The model's plan: ordered steps, each with why, the expected effect, the audit's money and the findings it rests on. */
export function AiPlanSteps({ plan }: { plan: AiPlanResult }) {
  return (
    <>
      {plan.summary && <p className="ai-plan__summary">{plan.summary}</p>}
      {/* The total against the audit's headline, in the server's words; plans stored before it keep the findings' sum. */}
      {plan.money_note ? (
        <p className="analysis-plan__total" data-testid="ai-plan-total">
          {plan.money_note}
        </p>
      ) : (
        plan.money_per_month_total !== null && (
          <p className="analysis-plan__total" data-testid="ai-plan-total">
            Замечания, на которые опирается план, аудит оценил в <strong>{formatRubPerMonth(plan.money_per_month_total)}</strong>.
          </p>
        )
      )}
      <ol className="plan-steps">
        {plan.steps.map((step) => (
          <li key={step.position} className="card plan-step" data-testid="ai-plan-step">
            <h2 className="plan-step__title">
              <span className="plan-step__number">{step.position}.</span> {step.title}
            </h2>
            {step.money_per_month !== null && (
              <p className="plan-step__meta">
                <strong>{formatRubPerMonth(step.money_per_month)}</strong> по оценке аудита
              </p>
            )}
            <p>
              <strong>Почему:</strong> {step.why}
            </p>
            {step.expected_effect && (
              <p>
                <strong>Что изменится:</strong> {step.expected_effect}
              </p>
            )}
            {step.findings.length > 0 && (
              <details>
                <summary>Замечания аудита ({step.findings.length})</summary>
                <ul className="ai-plan__findings">
                  {step.findings.map((finding) => (
                    <li key={finding.id} data-testid="ai-plan-finding">
                      <strong>{finding.title}</strong> — {finding.target}
                      <span className="muted">
                        {' '}
                        · {severityLabels[finding.severity]}
                        {finding.money_per_month !== null && ` · ${formatRubPerMonth(finding.money_per_month)}`}
                      </span>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
