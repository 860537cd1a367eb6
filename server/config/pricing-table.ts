import * as v from 'valibot';
import { analysisKindLabels, analysisKinds, type AnalysisKind } from '../../contract/tokens.js';

/**
 * The one pricing table of the product, and every price in it is charged by something: an audit start
 * charges what `POST /tokens/calculate-cost` quotes (per campaign: scoring + semantic), the
 * page check charges `perLandingPage` per page and an AI plan the flat `aiPlan`. Prices are whole tokens.
 *
 * Why these numbers (defaults; override any of them with the `PRICING_JSON` environment variable,
 * e.g. `PRICING_JSON='{"perCampaign":3,"kinds":{"semantic":1},"aiPlan":15}'`):
 * - The work of an audit grows with the number of keywords and ads, not with the number of files, so a
 *   campaign costs a small fixed part plus a part per started block of keywords and of ads.
 * - `perCampaign: 5`: even an empty campaign gets its settings checked and its report built.
 * - 2 tokens per started 100 keywords: keywords carry most checks (hygiene, duplicates, negatives,
 *   intersections, statistics).
 * - 1 token per started 50 ads: field-length and content checks are cheaper than keyword ones.
 * - groups are free by default (their work is counted in keywords and ads); the line exists so an
 *   operator can price them without a code change.
 * - The semantic pass on top of scoring costs a share of the campaign's scoring price, rounded up:
 *   ×0.5 (local lemmatisation, cheap).
 * So a typical campaign of 300 keywords and 60 ads costs 5 + 6 + 2 = 13 tokens for scoring, 20 with the
 * semantic analysis, and the welcome credit (100, `WELCOME_CREDIT`) pays for a first audit of a
 * several-campaign account with room to spare.
 */
export interface PricingTable {
  /** Tokens for one campaign, whatever its size. */
  perCampaign: number;
  /** `price` tokens per started block of `per` keywords (250 keywords = 3 blocks of 100). */
  keywords: { per: number; price: number };
  ads: { per: number; price: number };
  groups: { per: number; price: number };
  /** Price of each per-campaign option as a multiple of the campaign's scoring price. */
  kinds: Record<Exclude<AnalysisKind, 'scoring'>, number>;
  /**
   * The stand-alone page check (`/projects/:id/page-checks`) is priced per page,
   * not per campaign: its work is one fetch and one read per page, whatever the size of the campaigns
   * leading there. 1 token a page: a 20-page site costs 20, the 100-page maximum costs the welcome credit.
   */
  perLandingPage: number;
  /**
   * One AI plan (`POST /analyses/:id/ai-plans`): a flat price, because its prompt is bounded
   * (server/ai-plan/prompt.ts) whatever the size of the account, so every request to the model costs
   * about the same. 10 tokens: the work is one language-model call of up to ~25 000 characters in and a
   * short plan out — the most expensive single call of the product, but a single one.
   */
  aiPlan: number;
}

export const defaultPricingTable: PricingTable = {
  perCampaign: 5,
  keywords: { per: 100, price: 2 },
  ads: { per: 50, price: 1 },
  groups: { per: 10, price: 0 },
  kinds: { semantic: 0.5 },
  perLandingPage: 1,
  aiPlan: 10,
};

const price = v.pipe(v.number(), v.integer(), v.minValue(0));
const block = v.object({ per: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))), price: v.optional(price) });
const PricingOverrideSchema = v.strictObject({
  perCampaign: v.optional(price),
  keywords: v.optional(block),
  ads: v.optional(block),
  groups: v.optional(block),
  // Only the kinds `priceCampaigns` charges: the page check and the AI plan have their own prices below.
  kinds: v.optional(v.strictObject({ semantic: v.optional(v.pipe(v.number(), v.minValue(0))) })),
  perLandingPage: v.optional(price),
  aiPlan: v.optional(price),
});

/** The defaults with a JSON override on top; a malformed override stops the server at start-up. */
export function loadPricingTable(json: string | undefined, base: PricingTable = defaultPricingTable): PricingTable {
  if (!json?.trim()) return base;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (error) {
    throw new Error(`PRICING_JSON is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = v.safeParse(PricingOverrideSchema, raw);
  if (!parsed.success) {
    const problems = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`).join('; ');
    throw new Error(`PRICING_JSON does not match the pricing table: ${problems}`);
  }
  const o = parsed.output;
  return {
    perCampaign: o.perCampaign ?? base.perCampaign,
    keywords: { ...base.keywords, ...stripUndefined(o.keywords) },
    ads: { ...base.ads, ...stripUndefined(o.ads) },
    groups: { ...base.groups, ...stripUndefined(o.groups) },
    kinds: { ...base.kinds, ...stripUndefined(o.kinds) },
    perLandingPage: o.perLandingPage ?? base.perLandingPage,
    aiPlan: o.aiPlan ?? base.aiPlan,
  };
}

function stripUndefined<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, item]) => item !== undefined)) as Partial<T>;
}

/**
 * The table in force for this process. A malformed `PRICING_JSON` must not throw while modules load
 * (a stack trace before `main` runs): `loadConfig` checks it first and stops the start with a hint.
 */
export const pricingTable: PricingTable = (() => {
  try {
    return loadPricingTable(process.env.PRICING_JSON);
  } catch {
    return defaultPricingTable;
  }
})();
