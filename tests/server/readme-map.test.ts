/**
 * The README is the map of the house: short, and every path it names exists (a moved or renamed folder
 * that the map still shows fails here).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

/** `a/b.ts`, `server/engines`, docs/x.md links and the folder map's lines, as paths relative to the root. */
function namedPaths(text: string): string[] {
  const paths = new Set<string>();
  const looksLikePath = (value: string) => /^(\.ci|bench|contract|docs|public|server|src|tests)\//.test(value) || /^[\w.-]+\.(ts|json|md|js)$/.test(value);
  for (const [, code] of text.matchAll(/`([^`\s]+)`/g)) {
    // `server/engines/{scoring,semantic}` names both; `src/…` and `<name>` are patterns, not paths.
    const brace = /^(.*)\{([^}]+)\}(.*)$/.exec(code);
    const parts = brace ? brace[2].split(',').map((middle) => brace[1] + middle + brace[3]) : code.split(',');
    for (const part of parts) if (looksLikePath(part) && !/[…<*$]/.test(part)) paths.add(part.replace(/\/$/, ''));
  }
  for (const [, link] of text.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)) if (!/^https?:/.test(link)) paths.add(link);
  // The folder map: each line names folders or files inside the nearest less indented line's first name.
  const map = text.split('## Folder map')[1]?.split('```')[1] ?? '';
  const parents: { indent: number; path: string }[] = [];
  for (const line of map.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const names = line.trimStart().split(/\s{2,}/)[0];
    if (!names || indent > 8) continue; // a description's second line
    while (parents.length && parents[parents.length - 1].indent >= indent) parents.pop();
    const parent = parents.length ? parents[parents.length - 1].path + '/' : '';
    const named = names.split(/\s+/).filter((name) => /^[\w.-]+\/?$/.test(name)).map((name) => parent + name.replace(/\/$/, ''));
    named.forEach((name) => paths.add(name));
    if (named.length) parents.push({ indent, path: named[0] });
  }
  return [...paths];
}

describe('README', () => {
  it('is a map of at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('names only paths that exist', () => {
    const paths = namedPaths(readme);
    expect(paths.length).toBeGreaterThan(30);
    expect(paths.filter((name) => !existsSync(path.join(root, name)))).toEqual([]);
  });
});
