// Entry of the pool threads when the server runs from its TypeScript sources (vitest, tsx): Node 20
// ignores `--import tsx` in a Worker's execArgv, so the thread registers tsx itself, then loads the
// real entry. The compiled build starts its threads from pool-worker.js and never loads this file.
const { register } = await import('tsx/esm/api');
register();
const entry = await import('./pool-worker.ts');
export default entry.default;
