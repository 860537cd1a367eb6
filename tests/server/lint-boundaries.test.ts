/**
 * The layering the lint keeps (eslint.config.js): an import that crosses a boundary, on either side, fails
 * `npm run lint`. Each case lints one made-up file at a real path with the project's own configuration.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const eslint = new ESLint({ cwd: root });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.filter((message) => message.ruleId === 'import-x/no-restricted-paths').map((message) => message.message);
}

describe('module boundaries', () => {
  it.each([
    ['an engine reaching the database', 'server/engines/scoring/new-check.ts', "import { type DB } from '../../db/database.js';\nexport type X = DB;\n", 'Engines are pure'],
    ['an engine reaching a domain', 'server/engines/semantic/new-part.ts', "import { analysisJobWorker } from '../../analysis/worker.js';\nexport const x = analysisJobWorker;\n", 'Engines are pure'],
    ['the queue importing a domain', 'server/jobs/new-queue.ts', "import { analysisJobWorker } from '../analysis/worker.js';\nexport const x = analysisJobWorker;\n", 'import no domain'],
    ['a table type importing a domain', 'server/db/tables/new-table.ts', "import type { CampaignRowSummary } from '../../projects/campaign-row.js';\nexport type X = CampaignRowSummary;\n", 'import no domain'],
    ['a migration importing a domain', 'server/db/migrations/0999_new.ts', "import { resultRowBatches } from '../../analysis/result-rows.js';\nexport const x = resultRowBatches;\n", 'import no domain'],
    ['the configuration importing a domain', 'server/config.ts', "import { priceAiPlan } from './tokens/pricing.js';\nexport const x = priceAiPlan;\n", 'import no domain'],
    ['a domain importing another domain\'s routes', 'server/reports/new-file.ts', "import { analysisRoutes } from '../analysis/routes.js';\nexport const x = analysisRoutes;\n", 'routes or job worker'],
    ['a domain importing another domain\'s job worker', 'server/monitoring/new-file.ts', "import { analysisJobWorker } from '../analysis/worker.js';\nexport const x = analysisJobWorker;\n", 'routes or job worker'],
    ['the contract importing the PWA', 'contract/new-schema.ts', "import { formatRub } from '../src/lib/analysis-format.js';\nexport const x = formatRub;\n", 'imports neither'],
    ['the server importing the PWA', 'server/auth/new-file.ts', "import { formatRub } from '../../src/lib/analysis-format.js';\nexport const x = formatRub;\n", 'never the PWA'],
    ['a feature importing another feature', 'src/features/tokens/new-file.ts', "import * as admin from '@/features/admin/api';\nexport const x = admin;\n", 'never another feature'],
  ])('refuses %s', async (_case, file, code, expected) => {
    const errors = await boundaryErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(expected);
  }, 180_000); // the PWA's block follows every import for no-cycle: a cold lint of the graph

  it('lets an engine import the contract, another engine and a pure helper', async () => {
    const code = [
      "import type { Campaign } from '../../../contract/campaigns.js';",
      "import { stemEnglish } from '../semantic/lemmatizer.js';",
      "import { csvLine } from '../../lib/csv.js';",
      'export const x: [Campaign | null, unknown, unknown] = [null, stemEnglish, csvLine];',
      '',
    ].join('\n');
    expect(await boundaryErrors('server/engines/scoring/new-check.ts', code)).toEqual([]);
  });
});

describe('import cycles', () => {
  it('refuses a server module importing one that imports it back', async () => {
    const [result] = await eslint.lintText("import { paymentRoutes } from '../payments/routes.js';\nexport const x = paymentRoutes;\n", {
      filePath: path.join(root, 'server/tokens/ledger.ts'),
    });
    expect(result.messages.filter((message) => message.ruleId === 'import-x/no-cycle')).toHaveLength(1);
  }, 180_000);
});
