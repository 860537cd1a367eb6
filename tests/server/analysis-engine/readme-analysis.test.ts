import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultProjectSettings } from '../../../contract/projects.js';
import { checkRegistry } from '../../../server/engines/scoring/registry.js';

/** The README's analysis section documents every check and every threshold setting, as the code has them. */
describe('README, «Движок анализа»', () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Движок анализа'));

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
