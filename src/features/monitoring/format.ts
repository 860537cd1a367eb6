/** Texts of the comparison and the board: a money change with its sign, a score, a short date. */
import { formatRub } from "@contract/format";

/** «+5 200 ₽/мес», «−3 518 ₽/мес», «0 ₽/мес»: positive = more money lost. */
export function formatMoneyChange(change: number): string {
  const rounded = Math.round(change);
  const sign = rounded > 0 ? "+" : rounded < 0 ? "−" : "";
  return `${sign}${formatRub(Math.abs(rounded))}/мес`;
}

export const formatScore = (score: number | null | undefined) =>
  score === null || score === undefined ? "—" : `${Math.round(score)} / 100`;

/** The change of the money lost between the two last audits, or null with fewer than two figures. */
export function moneyTrendChange(
  audits: readonly { money_per_month: number | null }[],
): number | null {
  const figures = audits
    .map((audit) => audit.money_per_month)
    .filter((value): value is number => value !== null);
  if (figures.length < 2) return null;
  return figures[figures.length - 1]! - figures[figures.length - 2]!;
}
