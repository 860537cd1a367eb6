/**
 * The one rule every string of a request obeys before it can reach PostgreSQL: no C0 control characters
 * except tab, line feed and carriage return (PostgreSQL refuses NUL in `text` and `\u0000` in `jsonb`
 * with 22P05, and no person types the others), and no lone UTF-16 surrogates (they cannot be stored as
 * UTF-8). Request schemas use `text()` where they would use `v.string()`; the PWA's forms share them.
 */
import * as v from 'valibot';
import { genericValidationMessages } from './messages.js';
import './validation-language.js';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isCleanText(value: string): boolean {
  return !CONTROL_CHARACTERS.test(value) && !LONE_SURROGATE.test(value);
}

/** A request string: `v.string(message)` that refuses control characters with a Russian message. */
export function text(message?: string) {
  return v.pipe(v.string(message), v.check(isCleanText, genericValidationMessages.controlCharacters));
}

const CONTROL_CHARACTERS_ALL = new RegExp(CONTROL_CHARACTERS.source, 'g');

/** The text without its control characters, for values that are only shown (an uploaded file's name). */
export function stripControlCharacters(value: string): string {
  return value.replace(CONTROL_CHARACTERS_ALL, '');
}
