import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ledgerEntryTypeLabels, ledgerEntryTypes, type LedgerEntry, type LedgerEntryType } from '@contract/tokens.js';
import { CoinIcon } from '@/components/ui/CoinIcon';
import { LoadingLine, notSavedOffline } from '@/components/ui/PageStates';
import { QueryError } from '@/components/ui/QueryError';
import { Pager } from '@/components/ui/Pager';
import { balanceQueryOptions, historyQueryOptions, spendingQueryOptions } from '@/lib/tokens-api';
import { BuyTokensCard, PaymentsCard, ReturnedPayment } from './BuyTokens';
import { dailySpending } from './spending';
import { SpendChart } from './SpendChart';
import './tokens.css';

/** How many days the spend chart covers. */
export const SPENDING_DAYS = 30;

const formatNumber = (value: number) => value.toLocaleString('ru-RU');

function formatAmount(amount: number): string {
  return amount > 0 ? `+${formatNumber(amount)}` : `−${formatNumber(Math.abs(amount))}`;
}

function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/**
 * /tokens: the balance, buying more (packages by card or invoice), what was spent recently, payments
 * and every operation page by page. `paymentId`: the user is back from YooKassa's confirmation page.
 */
export function TokensScreen({ paymentId, onPaymentSettled }: { paymentId?: string; onPaymentSettled?: () => void }) {
  return (
    <section className="page tokens-page">
      <div className="page-header">
        <h1>Токены</h1>
      </div>
      {paymentId && <ReturnedPayment paymentId={paymentId} onSettled={onPaymentSettled ?? (() => undefined)} />}
      <div className="tokens-page__top">
        <BalanceCard />
        <SpendingCard />
      </div>
      <BuyTokensCard />
      <PaymentsCard />
      <HistoryCard />
    </section>
  );
}

function BalanceCard() {
  const balance = useQuery(balanceQueryOptions());
  return (
    <section className="card tokens-balance" aria-labelledby="tokens-balance-title">
      <h2 id="tokens-balance-title" className="tokens-balance__title">
        Баланс
      </h2>
      <p className="tokens-balance__value" data-testid="tokens-balance">
        <CoinIcon size={28} />
        <span>{balance.data === undefined ? '-' : formatNumber(balance.data)}</span>
      </p>
      {balance.isError && balance.data === undefined && (
        <p className="form-error" role="alert">
          {balance.error.message}
        </p>
      )}
      <p className="muted tokens-balance__hint">
        Токены списываются при запуске анализа; если анализ не удался, они возвращаются. Пополнить баланс можно пакетом токенов ниже: картой или
        по счёту для организации.
      </p>
    </section>
  );
}

function SpendingCard() {
  const entries = useQuery(spendingQueryOptions(SPENDING_DAYS));
  const data = useMemo(() => (entries.data ? dailySpending(entries.data, SPENDING_DAYS) : []), [entries.data]);
  const total = data.reduce((sum, item) => sum + item.spent, 0);
  return (
    <section className="card tokens-spending" aria-labelledby="tokens-spending-title">
      <div className="card__header">
        <h2 id="tokens-spending-title" className="card__title">
          Расход за {SPENDING_DAYS} дней
        </h2>
        {entries.data && <span className="badge badge--muted" data-testid="spending-total">{formatNumber(total)}</span>}
      </div>
      <LoadingLine query={entries} label="Загрузка…" offlineText={notSavedOffline('списания за эти дни')} />
      {entries.isError && <QueryError error={entries.error} onRetry={() => void entries.refetch()} />}
      {entries.data && total === 0 && <p className="muted">За {SPENDING_DAYS} дней токены не списывались.</p>}
      {entries.data && total > 0 && <SpendChart data={data} />}
    </section>
  );
}

function HistoryCard() {
  const [page, setPage] = useState(1);
  const [type, setType] = useState<LedgerEntryType | null>(null);
  const history = useQuery({ ...historyQueryOptions({ page, type }), placeholderData: keepPreviousData });

  const changeType = (value: string) => {
    setType(value ? (value as LedgerEntryType) : null);
    setPage(1);
  };

  return (
    <section className="card tokens-history" aria-labelledby="tokens-history-title">
      <div className="card__header">
        <h2 id="tokens-history-title" className="card__title">
          История операций
        </h2>
        <label className="tokens-history__filter">
          <span className="visually-hidden">Тип операции</span>
          <select className="select" value={type ?? ''} onChange={(event) => changeType(event.target.value)} aria-label="Тип операции">
            <option value="">Все операции</option>
            {ledgerEntryTypes.map((value) => (
              <option key={value} value={value}>
                {ledgerEntryTypeLabels[value]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <LoadingLine query={history} label="Загрузка истории…" offlineText={notSavedOffline('операции')} />
      {history.isError && !history.data && <QueryError error={history.error} onRetry={() => void history.refetch()} />}
      {history.data && history.data.items.length === 0 && (
        <p className="muted">{type ? 'Операций этого типа нет.' : 'Операций пока нет.'}</p>
      )}
      {history.data && history.data.items.length > 0 && (
        <>
          <div className="table-wrap">
            <table className="table" aria-busy={history.isPlaceholderData}>
              <thead>
                <tr>
                  <th scope="col">Дата</th>
                  <th scope="col">Операция</th>
                  <th scope="col">Сумма</th>
                  <th scope="col">Баланс после</th>
                  <th scope="col">Комментарий</th>
                </tr>
              </thead>
              <tbody>
                {history.data.items.map((entry) => (
                  <HistoryRow key={entry.id} entry={entry} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Страницы истории" page={page} pageSize={history.data.page_size} total={history.data.total} onPage={setPage} pending={history.isPlaceholderData} />
        </>
      )}
    </section>
  );
}

function HistoryRow({ entry }: { entry: LedgerEntry }) {
  return (
    <tr>
      <td data-label="Дата">{formatDateTime(entry.created_at)}</td>
      <td data-label="Операция">{ledgerEntryTypeLabels[entry.type] ?? entry.type}</td>
      <td data-label="Сумма" className={entry.amount > 0 ? 'tokens-history__credit' : 'tokens-history__debit'}>
        {formatAmount(entry.amount)}
      </td>
      <td data-label="Баланс после">{formatNumber(entry.balance_after)}</td>
      <td data-label="Комментарий">{entry.reason ?? '—'}</td>
    </tr>
  );
}
