import { ApiError } from '@/lib/api-client';

export interface ImportErrorState {
  message: string;
  rows: { file: string; row?: number; column?: string; message: string }[];
}

/** An API error as the upload panel shows it: the headline, and for a broken file the rows to fix. */
export function importErrorOf(error: unknown): ImportErrorState {
  if (!(error instanceof ApiError)) return { message: error instanceof Error ? error.message : 'Не удалось загрузить файлы', rows: [] };
  const body = error.body as { error?: string; detail?: { loc: (string | number)[]; msg: string }[] } | null;
  const rows = (body?.detail ?? [])
    .filter((item) => item.loc[0] === 'files' && typeof item.loc[1] === 'string')
    .map((item) => ({
      file: String(item.loc[1]),
      row: typeof item.loc[2] === 'number' ? item.loc[2] : undefined,
      column: typeof item.loc[3] === 'string' ? item.loc[3] : typeof item.loc[2] === 'string' ? item.loc[2] : undefined,
      message: item.msg,
    }));
  // The headline is the server's own sentence, not the joined detail the client builds by default.
  return { message: body?.error ?? error.message, rows };
}

export function ImportErrors({ state }: { state: ImportErrorState }) {
  return (
    <div className="form-error import-errors" role="alert">
      <p className="import-errors__title">{state.message}</p>
      {state.rows.length > 0 && (
        <div className="table-wrap">
          <table className="table table--compact">
            <thead>
              <tr>
                <th>Файл</th>
                <th>Строка</th>
                <th>Столбец</th>
                <th>Что не так</th>
              </tr>
            </thead>
            <tbody>
              {state.rows.map((row, index) => (
                <tr key={index}>
                  <td data-label="Файл">{row.file}</td>
                  <td data-label="Строка">{row.row ?? '—'}</td>
                  <td data-label="Столбец">{row.column ?? '—'}</td>
                  <td data-label="Что не так">{row.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
