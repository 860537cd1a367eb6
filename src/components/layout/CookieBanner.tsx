import { useEffect, useState } from 'react';
import { localValue } from '@/lib/storage';
import './layout.css';

export const COOKIE_CONSENT_KEY = 'cookie_consent_given';
export const COOKIE_BANNER_DELAY_MS = 1000;
export const COOKIE_BANNER_TEXT = 'Мы используем на сайте куки. В интернете без них никак.';
export const COOKIE_BANNER_BUTTON = 'Согласен';

// With storage blocked, localValue reads nothing and writes nothing: the banner asks on each visit.
const consentGiven = () => localValue.get(COOKIE_CONSENT_KEY) === 'true';
const rememberConsent = () => localValue.set(COOKIE_CONSENT_KEY, 'true');

/** Appears one second after load until the visitor agrees; the answer is kept in local storage. */
export function CookieBanner() {
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (consentGiven()) return;
    const timer = window.setTimeout(() => setVisible(true), COOKIE_BANNER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (!visible) return null;

  const accept = () => {
    rememberConsent();
    setVisible(false);
  };

  return (
    <div className="cookie-banner" role="region" aria-label="Согласие на использование куки">
      <p className="cookie-banner__text">{COOKIE_BANNER_TEXT}</p>
      <button type="button" className="cookie-banner__button" onClick={accept}>
        {COOKIE_BANNER_BUTTON}
      </button>
    </div>
  );
}
