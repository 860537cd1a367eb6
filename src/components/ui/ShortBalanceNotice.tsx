import { Link } from '@tanstack/react-router';

export const INSUFFICIENT_TITLE = 'Недостаточно токенов на балансе';

/**
 * A paid start refused, or about to be, for lack of tokens (the audit's and the page check's start
 * screens): `detail` says what it costs against the balance when that is known; the link leads to /tokens.
 */
export function ShortBalanceNotice({ detail }: { detail: string | null }) {
  return (
    <div className="form-error short-balance" role="alert">
      <p>
        <strong>{INSUFFICIENT_TITLE}.</strong>
        {detail && (
          <>
            {' '}
            <span>{detail}</span>
          </>
        )}
      </p>
      <Link to="/tokens" className="link">
        Пополнить баланс на странице «Токены»
      </Link>
    </div>
  );
}
