import { useState } from 'react';
import type { AdField, Suggestion } from '@contract/analysis-results.js';
import type { StatsPeriod } from '@contract/campaigns.js';
import { negativeCategoryLabels } from '@contract/analysis-results.js';
import type { Choice } from '@/features/analysis/result-model';
import { formatCount, formatPeriod, formatRub, formatRubPerMonth, placeOf } from '@/lib/analysis-format';
import { EvidenceList } from './FindingCard';

const adFieldLabels: Record<AdField, string> = {
  headline: 'Заголовок',
  text: 'Текст',
  displayUrl: 'Отображаемая ссылка',
  path: 'Путь',
  finalUrl: 'Ссылка',
  sitelinkTitle: 'Быстрая ссылка',
  sitelinkDescription: 'Описание быстрой ссылки',
  callout: 'Уточнение',
};

/** The one-line text of a suggestion (what gets added or changed). */
export function suggestionText(item: Suggestion): string {
  if (item.kind === 'negative_keyword') return `-${item.text}`;
  if (item.kind === 'cross_minus') return `${item.before} → ${item.after}`;
  if (item.manual) return `${item.before} → переписать вручную (сейчас ${item.manual.length}, лимит ${item.manual.limit})`;
  return `${item.before} → ${item.after}`;
}

interface Props {
  item: Suggestion;
  choice: Choice;
  onChoose: (choice: Choice) => void;
  /** The user's own value of an ad field (defaults to the suggested one). */
  value?: string;
  onValueChange?: (value: string) => void;
  /** Period of the search-query statistics behind a negative. */
  period?: StatsPeriod | null;
  /** The element of the item: a list item of its own, or a block inside a row of a virtual list. */
  as?: 'li' | 'div';
}

export function SuggestionItem({ item, choice, onChoose, value, onValueChange, period, as: Element = 'li' }: Props) {
  const periodText = formatPeriod(period);
  const text = suggestionText(item);
  const [draft, setDraft] = useState(value ?? (item.kind === 'ad_field' ? item.after : ''));
  return (
    <Element className={`suggestion suggestion--${choice ?? 'open'}`} data-testid="suggestion">
      <div className="suggestion__body">
        <p className="suggestion__text">
          {item.kind === 'ad_field' && <span className="suggestion__field">{adFieldLabels[item.field]} {item.index + 1}: </span>}
          <code>{text}</code>
        </p>
        <p className="muted suggestion__place">
          {item.kind === 'negative_keyword' ? (item.level === 'campaign' ? 'Кампания' : 'Группа') : item.kind === 'cross_minus' && item.level === 'group' ? 'Группа' : 'Где'}:{' '}
          {placeOf(item.target)}
          {item.kind === 'negative_keyword' && ` · ${negativeCategoryLabels[item.category]}`}
        </p>
        {item.kind === 'negative_keyword' && item.clicks > 0 && (
          <p className="suggestion__numbers">
            {formatCount(item.clicks)} кл. · {formatRub(item.cost)} без конверсий
            {item.costPerMonth > 0 && <> · {formatRubPerMonth(item.costPerMonth)}</>}
            {periodText && <span className="muted"> · период {periodText}</span>}
          </p>
        )}
        {item.kind === 'negative_keyword' && item.evidence.some((fact) => fact.threshold !== undefined) && <EvidenceList evidence={item.evidence} />}
        <p className="suggestion__reason">{item.reason}</p>
        {item.kind === 'negative_keyword' && item.queries.length > 0 && (
          <details className="suggestion__queries">
            <summary>Запросы ({formatCount(item.queries.length)})</summary>
            <ul>
              {item.queries.slice(0, 10).map((query) => (
                <li key={query.query}>
                  {query.query} — {formatCount(query.clicks)} кл., {formatRub(query.cost)}, конверсий {formatCount(query.conversions)}
                </li>
              ))}
            </ul>
          </details>
        )}
        {item.kind === 'ad_field' && choice === 'accepted' && onValueChange && (
          <label className="suggestion__edit">
            <span className="field__label">
              {item.manual ? `Ваш вариант (лимит ${item.manual.limit}; без него в файл ничего не попадёт)` : 'Новое значение (можно поправить)'}
            </span>
            <input
              className="input input--small"
              value={draft}
              maxLength={1000}
              onChange={(event) => setDraft(event.target.value)}
              onBlur={() => {
                const next = draft.trim() || item.after;
                if (next !== (value ?? item.after)) onValueChange(next);
              }}
            />
          </label>
        )}
        {item.kind === 'cross_minus' && item.remove.length > 0 && (
          <p className="muted">Удаляются дубли: {item.remove.map((ref) => ref.label ?? ref.key).join(', ')}</p>
        )}
      </div>
      <div className="suggestion__choice" role="group" aria-label={`Решение: ${text}`}>
        <button
          type="button"
          className={`btn btn--small ${choice === 'accepted' ? 'btn--primary' : 'btn--secondary'}`}
          aria-pressed={choice === 'accepted'}
          onClick={() => onChoose(choice === 'accepted' ? null : 'accepted')}
        >
          Принять
        </button>
        <button
          type="button"
          className={`btn btn--small ${choice === 'rejected' ? 'btn--danger' : 'btn--secondary'}`}
          aria-pressed={choice === 'rejected'}
          onClick={() => onChoose(choice === 'rejected' ? null : 'rejected')}
        >
          Отклонить
        </button>
      </div>
    </Element>
  );
}
