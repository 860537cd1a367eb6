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
