import { useState, type FormEvent } from 'react';

/**
 * One filter of a paged list as a labelled select. The address keeps filters as lists (a cause link may
 * ask for several checks at once); the select shows a one-item list as its value and anything else as
 * «all», and choosing a value writes it back as a one-item list ('' = the filter is cleared).
 */
export interface FilterOption<T extends string> {
  value: T;
  label: string;
}

export function ListFilterSelect<T extends string>({
  label,
  allLabel,
  value,
  options,
  onChange,
}: {
  label: string;
  allLabel: string;
  value: readonly T[] | undefined;
  options: readonly FilterOption<T>[];
  onChange: (value: T[] | undefined) => void;
}) {
  return (
    <label className="field list-filters__field">
      <span className="field__label">{label}</span>
      <select className="select" value={value?.length === 1 ? value[0] : ''} onChange={(event) => onChange(event.target.value ? [event.target.value as T] : undefined)}>
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The campaigns of a results summary as filter options (their names, else their keys). */
export function campaignOptions(campaigns: readonly { target: { key: string; campaignName?: string } }[]): FilterOption<string>[] {
  return campaigns.map((campaign) => ({ value: campaign.target.key, label: campaign.target.campaignName ?? campaign.target.key }));
}

/** A list's free-text filter: typed freely, applied on Enter (the filters form's submit) or on leaving the field. */
export function useSearchText(applied: string | undefined, apply: (text: string | undefined) => void) {
  const [text, setText] = useState(applied ?? '');
  const typed = () => text.trim() || undefined;
  return {
    text,
    setText,
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      apply(typed());
    },
    onBlur: () => typed() !== applied && apply(typed()),
  };
}

/** «Поиск» of a list's filters, given {@link useSearchText}'s state. */
export function SearchTextField({ search, placeholder }: { search: ReturnType<typeof useSearchText>; placeholder: string }) {
  return (
    <label className="field list-filters__field list-filters__text">
      <span className="field__label">Поиск</span>
      <input className="input" type="search" value={search.text} maxLength={200} placeholder={placeholder} onChange={(event) => search.setText(event.target.value)} onBlur={search.onBlur} />
    </label>
  );
}
