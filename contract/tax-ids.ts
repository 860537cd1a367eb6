/**
 * Russian tax identifiers, checked the way the tax service builds them, so a mistyped number is caught
 * on the form rather than on a bank's payment order.
 *
 * ИНН: 10 digits (a company) or 12 (a person or an entrepreneur); the last digit (two for 12) is a
 * weighted sum of the others mod 11 mod 10. КПП: 9 characters, «NNNN PP NNN»: the tax office (4
 * digits), the reason (2 digits or capital Latin letters), a number (3 digits).
 */
const INN10_WEIGHTS = [2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN11_WEIGHTS = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
const INN12_WEIGHTS = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];

const checkDigit = (digits: number[], weights: number[]) => (weights.reduce((sum, weight, index) => sum + weight * digits[index], 0) % 11) % 10;

/** 10 or 12 digits: the shape only (the form says «10 или 12 цифр» before it speaks of checksums). */
export const isInnShaped = (value: string) => /^(\d{10}|\d{12})$/.test(value);

/** A 10- or 12-digit ИНН whose control digits match. */
export function isValidInn(value: string): boolean {
  if (!isInnShaped(value)) return false;
  const digits = [...value].map(Number);
  if (digits.length === 10) return checkDigit(digits, INN10_WEIGHTS) === digits[9];
  return checkDigit(digits, INN11_WEIGHTS) === digits[10] && checkDigit(digits, INN12_WEIGHTS) === digits[11];
}

export const isValidKpp = (value: string) => /^\d{4}[\dA-Z]{2}\d{3}$/.test(value);

/** A company (10-digit ИНН) has a КПП; a person or an entrepreneur (12 digits) has none. */
export const isCompanyInn = (inn: string) => /^\d{10}$/.test(inn);
