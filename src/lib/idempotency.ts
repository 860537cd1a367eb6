/**
 * Idempotency keys of the PWA's starts (paid runs, imports): one key per start form, made when first
 * sent and kept across retries and double clicks, so a start whose answer was lost can be sent again
 * without a second charge. `renew` makes the next send a new start.
 */
import { useCallback, useRef } from 'react';

export function newIdempotencyKey(): string {
  const webCrypto = globalThis.crypto;
  if (typeof webCrypto?.randomUUID === 'function') return webCrypto.randomUUID();
  // Old browsers (and plain-http origins) lack randomUUID: build a v4 UUID from random bytes.
  const bytes = new Uint8Array(16);
  webCrypto.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function useIdempotencyKey(): { key: () => string; renew: () => void } {
  const ref = useRef<string | null>(null);
  const key = useCallback(() => {
    ref.current ??= newIdempotencyKey();
    return ref.current;
  }, []);
  const renew = useCallback(() => {
    ref.current = null;
  }, []);
  return { key, renew };
}
