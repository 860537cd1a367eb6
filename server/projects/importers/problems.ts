import type { ImportProblem } from '../../../contract/campaigns.js';
import { format, importerMessages } from './messages.js';

/** Warnings kept per file: a 100 000-row file with one bad column must not produce 100 000 problems. */
const MAX_WARNINGS_PER_FILE = 200;

/** Collects the problems of one file; errors are always kept, warnings are capped. */
export class ProblemLog {
  readonly problems: ImportProblem[] = [];
  private warnings = 0;
  private droppedWarnings = 0;
  private errors = 0;

  constructor(readonly file: string) {}

  error(message: string, row?: number, column?: string): void {
    this.errors += 1;
    this.problems.push(problem(this.file, 'error', message, row, column));
  }

  warn(message: string, row?: number, column?: string): void {
    if (this.warnings >= MAX_WARNINGS_PER_FILE) {
      this.droppedWarnings += 1;
      return;
    }
    this.warnings += 1;
    this.problems.push(problem(this.file, 'warning', message, row, column));
  }

  get hasErrors(): boolean {
    return this.errors > 0;
  }

  /** The problems with a closing note when warnings were dropped. */
  finish(): ImportProblem[] {
    if (this.droppedWarnings > 0) {
      this.problems.push(
        problem(this.file, 'warning', format(importerMessages.tooManyProblems, { count: this.droppedWarnings, shown: MAX_WARNINGS_PER_FILE })),
      );
      this.droppedWarnings = 0;
    }
    return this.problems;
  }
}

function problem(file: string, severity: ImportProblem['severity'], message: string, row?: number, column?: string): ImportProblem {
  const result: ImportProblem = { file, message, severity };
  if (row !== undefined) result.row = row;
  if (column !== undefined) result.column = column;
  return result;
}
