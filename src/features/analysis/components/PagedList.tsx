import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { measureElement, useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { Page } from '@contract/analysis-pages.js';
import { Spinner } from '@/components/ui/form';
import { useOnlineStatus } from '@/lib/useOnlineStatus';
import { formatCount } from '@/lib/analysis-format';
import { itemsOf, totalLabelOf } from '@/features/analysis/pages-api';

/** Rows from the end of the loaded ones at which the next page is asked for. */
const LOAD_AHEAD_ROWS = 10;

interface Props<T> {
  query: UseInfiniteQueryResult<InfiniteData<Page<T>, unknown>, Error>;
  /** Accessible name of the list. */
  label: string;
  /** What the list holds, for «Показать ещё» and the offline note: «замечания», «предложения». */
  noun: string;
  keyOf: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  /** A first guess of a row's height in px (rows are measured once drawn). */
  estimateSize?: number;
  empty: ReactNode;
  testId?: string;
}

/**
 * A list read page by page and drawn virtualised against the window's scroll (only the rows near the
 * screen are in the DOM, so 100 000 rows scroll like 50). The next page is asked for as the end of the
 * loaded rows comes near, and a «Показать ещё» button does the same for keyboards and screen readers.
 * Without network the pages already read stay, and the list says the rest needs the network.
 */
export function PagedList<T>({ query, label, noun, keyOf, renderItem, estimateSize = 160, empty, testId }: Props<T>) {
  const online = useOnlineStatus();
  const items = itemsOf(query.data);
  const total = totalLabelOf(query.data);
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the list starts on the page: what is above it can change (filters, chips, notices), so it is
  // read after every render and stored only when it moved.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- on purpose without dependencies: it runs after every render
  useLayoutEffect(() => {
    if (!listRef.current) return;
    const top = listRef.current.getBoundingClientRect().top + window.scrollY;
    if (Math.abs(top - scrollMargin) > 1) setScrollMargin(top);
  });

  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => estimateSize,
    overscan: 6,
    scrollMargin,
    getItemKey: (index) => keyOf(items[index] as T),
    // A row not laid out (no size yet) keeps its estimate instead of collapsing to 0 px, which would
    // put every row on screen at once.
    measureElement: (element, entry, instance) => measureElement(element, entry, instance) || estimateSize,
  });
  const rows = virtualizer.getVirtualItems();
  const lastRow = rows.at(-1)?.index ?? -1;
  const { hasNextPage, fetchNextPage, isFetching } = query;
  useEffect(() => {
    if (online && hasNextPage && !isFetching && lastRow >= items.length - LOAD_AHEAD_ROWS) void fetchNextPage();
  }, [online, hasNextPage, isFetching, lastRow, items.length, fetchNextPage]);

  if (query.isPending) {
    if (!online || query.fetchStatus === 'paused') return <NeedsNetwork noun={noun} />;
    return (
      <p className="state-line">
        <Spinner label={`Загрузка: ${noun}`} />
      </p>
    );
  }
  if (query.isError && items.length === 0) {
    return (
      <p className="form-error" role="alert">
        {query.error.message}{' '}
        <button type="button" className="link-button" onClick={() => void query.refetch()}>
          Повторить
        </button>
      </p>
    );
  }
  if (items.length === 0) return <>{empty}</>;

  return (
    <>
      <ul
        ref={listRef}
        className="paged-list"
        aria-label={label}
        aria-busy={isFetching}
        data-testid={testId}
        style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
      >
        {rows.map((row) => (
          <li
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="paged-list__row"
            style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
          >
            {renderItem(items[row.index] as T, row.index)}
          </li>
        ))}
      </ul>
      <div className="paged-list__footer">
        {total !== null && (
          <p className="muted" aria-live="polite">
            Показано {formatCount(items.length)} из {total}
          </p>
        )}
        <LoadMore query={query} online={online} noun={noun} />
      </div>
    </>
  );
}

/**
 * «Показать ещё» under a list read page by page, or, offline, the note that the rest loads with the
 * network. Nothing once the last page is in.
 */
export function LoadMore({
  query,
  online,
  noun,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  online: boolean;
  noun: string;
}) {
  if (!query.hasNextPage) return null;
  if (!online) return <NeedsNetwork noun={noun} more />;
  return (
    <button type="button" className="btn btn--ghost btn--small" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
      {query.isFetchingNextPage ? 'Загрузка…' : 'Показать ещё'}
    </button>
  );
}

/** A list (or its next page) not read yet while offline. */
export function NeedsNetwork({ noun, more = false }: { noun: string; more?: boolean }) {
  return (
    <p className="muted paged-list__offline" role="status" data-testid="needs-network">
      Нет подключения к сети: {more ? `остальные ${noun}` : noun} загрузятся, когда связь появится.
    </p>
  );
}
