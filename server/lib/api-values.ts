/**
 * Database values as the API writes them. pg gives timestamps as Date (or as string through some raw
 * queries and JSON aggregates); the contract wants ISO 8601 strings.
 */
export function iso(value: Date | string): string;
export function iso(value: Date | string | null): string | null;
export function iso(value: Date | string | null): string | null {
  return value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();
}

/** A person's name from the optional first and last names, each trimmed ('' when neither is known). */
export const fullName = (first: string | null, last: string | null) =>
  [first?.trim(), last?.trim()].filter(Boolean).join(' ');
