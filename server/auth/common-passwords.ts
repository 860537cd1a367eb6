/**
 * ASVS 6.2.4: a new password is refused when it is one of the most common ones. The list is the
 * "passwords-common" dictionary of `@zxcvbn-ts/language-common` (MIT; about 49 000 passwords from
 * breach corpora, ranked), kept on the server only (the PWA bundle does not carry it) and loaded once,
 * when this module is first imported. The comparison ignores case, since our rules make people add
 * capitals to a word the list has in lower case («Password1» is «password1»). Entries shorter than
 * the 8 characters our rules require could never match, so they are left out of the set.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { validationMessages } from '../../contract/messages.js';
import { validationError } from '../lib/errors.js';

const MIN_LENGTH = 8;
const commonPasswords = new Set(dictionary['passwords-common'].filter((password) => password.length >= MIN_LENGTH));

export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.toLowerCase());
}

/** 422 with the form's field, in Russian, for a password from the list. */
export function refuseCommonPassword(password: string, field = 'password'): void {
  if (isCommonPassword(password)) throw validationError([{ loc: ['body', field], msg: validationMessages.passwordCommon }]);
}
