/**
 * A function of more than 100 lines is where a reader gets lost: split it where its parts have names of
 * their own (route groups into plugin functions, screen sections into components, check groups into
 * functions). Counted from the first line of the function to its last, nested functions included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const MAX_LINES = 100;
/**
 * The source files of `folder`. Migrations are left out: each is the record of a schema change as it
 * shipped, read top to bottom as one script, and never edited afterwards.
 */
function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !file.endsWith('routeTree.gen.ts'))
    .map((file) => path.join(folder, file))
    .filter((file) => !file.startsWith(path.join('server', 'db', 'migrations')));
}

function functionName(node: ts.Node): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isFunctionExpression(node)) && node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** `file:line name (N lines)` for each function longer than MAX_LINES. */
function longFunctions(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_LINES) found.push(`${file}:${first + 1} ${functionName(node)} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('function length', () => {
  it.each(['server', 'src', 'contract'])(`no function in %s/ is longer than ${MAX_LINES} lines`, (folder) => {
    expect(sourceFiles(folder).flatMap(longFunctions)).toEqual([]);
  });
});
