/**
 * «Назад / Страница N из M / Вперёд» under a paged list. «Вперёд» waits while the
 * next page is still loading (`pending`), so a fast double click cannot skip one.
 */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  label,
  pending = false,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
  pending?: boolean;
}) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, pageSize)));
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="btn btn--secondary btn--small" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Назад
      </button>
      <span className="pager__info">
        Страница {page} из {pages}
      </span>
      <button type="button" className="btn btn--secondary btn--small" onClick={() => onPage(page + 1)} disabled={page >= pages || pending}>
        Вперёд
      </button>
    </nav>
  );
}
