import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultProjectSettings } from '../../../contract/projects.js';
import { checkRegistry } from '../../../server/engines/scoring/registry.js';

/** The analysis engine's notes (docs/analysis-engine.md) document every check and every threshold setting, as the code has them. */
describe('docs/analysis-engine.md', () => {
  const section = readFileSync(new URL('../../../docs/analysis-engine.md', import.meta.url), 'utf8');

  it('lists every check with its severity, weight and needs', () => {
    for (const check of checkRegistry) {
      const row = section.split('\n').find((line) => line.startsWith(`| \`${check.id}\` |`));
      expect(row, check.id).toBeDefined();
      expect(row!.split('|').slice(-4, -1).map((cell) => cell.trim()), check.id).toEqual([check.severity, String(check.weight), check.needs]);
    }
  });

  it('lists every project threshold with its default', () => {
    for (const [key, value] of Object.entries(defaultProjectSettings)) {
      const row = section.split('\n').find((line) => line.startsWith(`| \`${key}\` |`));
      expect(row, key).toBeDefined();
      const shown = row!.split('|')[2].trim();
      expect(shown, key).toBe(Array.isArray(value) ? '—' : String(value));
    }
  });
});
