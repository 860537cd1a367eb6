/**
 * What `npm start` prints when it cannot start: what failed and what to do about it, never a bare
 * `undefined` or a stack trace alone. Known failures throw a `StartupError` with a hint; anything else
 * is described from its code (a taken port, a refused database connection) or shown as it is.
 */
export class StartupError extends Error {
  override name = 'StartupError';
  constructor(
    message: string,
    /** What the operator can do about it. */
    readonly hint: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A readable text for whatever a start-up step threw (even `undefined` or a string). */
export function describeStartupFailure(error: unknown, step: string): string {
  const lines = [`Reklama Lab could not start: ${step} failed.`];
  if (error instanceof StartupError) {
    lines.push(error.message, `What to do: ${error.hint}`);
    return lines.join('\n');
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : error === undefined ? 'no reason was given (the error was undefined)' : String(error);
  lines.push(message);
  const hints: Record<string, string> = {
    EADDRINUSE: 'another program listens on this port: stop it or choose another port with PORT=…',
    EACCES: 'the process may not use this port or file: choose a port above 1024 (PORT=…) or check the permissions of DATA_DIR',
    ECONNREFUSED: 'nothing answers at the database address: check DATABASE_URL and that PostgreSQL is running',
    ENOTFOUND: 'the database host name does not resolve: check DATABASE_URL',
    '28P01': 'PostgreSQL refused the password: check the user and password in DATABASE_URL',
    '3D000': 'the database named in DATABASE_URL does not exist: create it (createdb …) or fix the name',
  };
  if (code && hints[code]) lines.push(`What to do: ${hints[code]}`);
  else if (error instanceof Error && error.stack) lines.push(error.stack.split('\n').slice(1, 6).join('\n'));
  return lines.join('\n');
}

/** Runs one start-up step, naming it in the message if it fails. */
export async function startupStep<T>(step: string, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw new StartupFailure(step, error);
  }
}

/** A failed step: `describe()` gives the message to print. */
export class StartupFailure extends Error {
  override name = 'StartupFailure';
  constructor(
    readonly step: string,
    readonly reason: unknown,
  ) {
    super(describeStartupFailure(reason, step));
  }
}
