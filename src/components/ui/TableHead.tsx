/**
 * The header row of a data table: one `<th scope="col">` a column and, for tables whose last cell holds
 * buttons, an unnamed-on-screen «Действия» column that screen readers still announce.
 */
export function TableHead({ columns, actions = false }: { columns: readonly string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col">
            {column}
          </th>
        ))}
        {actions && (
          <th scope="col">
            <span className="visually-hidden">Действия</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
