import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useSession } from '../../features/auth/session';
import { BALANCE_REFRESH_MS, balanceQueryOptions } from '../../features/tokens/api';
import { notifyNewTokenEntries } from '../../features/tokens/credit-notifications';
import { CoinIcon } from '../ui/CoinIcon';

export const BALANCE_LABEL = 'Баланс:';
/** What the indicator shows while the balance is not known yet. */
export const BALANCE_PLACEHOLDER = '-';

export function formatTokens(value: number): string {
  return value.toLocaleString('ru-RU');
}

/**
 * 'Баланс:' with a coin and the number, linking to /tokens. Refreshes every 60 s while mounted
 * (React Query drops the timer with the last observer); a 401 reads as 0 (see fetchBalance).
 */
export function BalanceIndicator() {
  const balance = useQuery({
    ...balanceQueryOptions(),
    refetchInterval: BALANCE_REFRESH_MS,
    // The next tick retries anyway; a failure is logged once, not three times.
    retry: false,
  });

  useEffect(() => {
    if (balance.errorUpdatedAt > 0 && balance.error) console.error('Ошибка загрузки баланса', balance.error);
  }, [balance.errorUpdatedAt, balance.error]);

  // A balance fetched from the server that differs from the last one seen: tell what arrived or left.
  const { user, isOrganizationOwner } = useSession();
  const seen = useRef<number | null>(null);
  useEffect(() => {
    if (!user || balance.data === undefined || balance.fetchStatus !== 'idle' || !balance.isFetchedAfterMount) return;
    if (seen.current === balance.data) return;
    seen.current = balance.data;
    notifyNewTokenEntries(user.id, isOrganizationOwner).catch((error: unknown) => console.error('Ошибка загрузки операций', error));
  }, [user, isOrganizationOwner, balance.data, balance.fetchStatus, balance.isFetchedAfterMount]);

  const loading = balance.isPending && balance.fetchStatus === 'fetching';
  const value = balance.data === undefined ? BALANCE_PLACEHOLDER : formatTokens(balance.data);

  return (
    <Link
      to="/tokens"
      className="balance-indicator"
      aria-busy={loading}
      title={balance.isError && balance.data === undefined ? 'Не удалось загрузить баланс' : 'Управление токенами'}
    >
      <span className="balance-indicator__label">{BALANCE_LABEL}</span>
      <CoinIcon className="balance-indicator__coin" />
      <span className="balance-indicator__value" data-testid="balance-value">
        {value}
      </span>
    </Link>
  );
}
