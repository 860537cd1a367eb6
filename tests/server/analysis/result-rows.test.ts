import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditResult } from '../../../contract/analysis.js';
import { copyText, resultRowBatches, type ResultRowBatch } from '../../../server/analysis/result-rows.js';
import { auditOf } from './helpers.js';

const ANALYSIS_ID = '00000000-0000-0000-0000-000000000000';

/** The rows of a table from COPY batches, each line's values unescaped (`\N` → null). */
function copyRows(batches: Iterable<ResultRowBatch>, table: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  for (const batch of batches) {
    if (batch.kind !== 'copy' || batch.table !== table) continue;
    for (const line of copyText(batch).split('\n')) {
      if (line === '') continue;
      rows.push(line.split('\t').map((value) => (value === '\\N' ? null : value.replace(/\\([\\tnr])/g, (_, c: string) => ({ '\\': '\\', t: '\t', n: '\n', r: '\r' })[c]!))));
    }
  }
  return rows;
}

describe('result rows as COPY text', () => {
  let base: AuditResult;
  beforeAll(async () => {
    base = await auditOf();
  });

  it('escapes backslashes, tabs and line breaks in cells and documents, so every value reads back as it was', () => {
    const result = structuredClone(base);
    const finding = result.scoring.findings[0]!;
    finding.title = 'Tab\there, line\nbreak, return\r, back\\slash and "quotes"';
    const rows = copyRows(resultRowBatches(result, undefined, { encoding: { kind: 'copy', analysisId: ANALYSIS_ID } }), 'analysis_findings');
    const row = rows.find((cells) => cells[1] === finding.id)!;
    expect(row[0]).toBe(ANALYSIS_ID);
    expect(row[11]).toContain('tab\there, line\nbreak, return\r, back\\slash and "quotes"');
    const { items: _items, ...stored } = finding;
    expect(JSON.parse(row.at(-1)!)).toEqual(stored);
  });

  it('cuts a chunk of items where their texts pass a million characters, a bigger item alone', () => {
    const result = structuredClone(base);
    const verdict = result.scoring.keywordVerdicts[0]!;
    const sized = (chars: number) => ({ ...verdict, reason: 'ы'.repeat(chars) });
    // 400 000 + 400 000 fit, a third does not; 1 200 000 is over the bound on its own; then two small ones.
    result.scoring.keywordVerdicts = [sized(400_000), sized(400_000), sized(400_000), sized(1_200_000), sized(10), sized(10)];
    const rows = copyRows(resultRowBatches(result, undefined, { encoding: { kind: 'copy', analysisId: ANALYSIS_ID } }), 'analysis_semantic').filter((cells) => cells[1] === 'keyword_verdicts');
    expect(rows.map((cells) => [cells[2], cells[5]])).toEqual([
      ['0', '2'],
      ['2', '1'],
      ['3', '1'],
      ['4', '2'],
    ]);
    expect(rows.flatMap((cells) => JSON.parse(cells[6]!) as unknown[])).toEqual(result.scoring.keywordVerdicts);
  });
});
