interface NamedUser {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
}

const firstLetter = (value: string | null | undefined) => (value ?? '').trim().charAt(0);

/**
 * Avatar initials (spec section 2): first letters of first_name and last_name; without a name the
 * first letter of the email; without that 'U'.
 */
export function userInitials(user: NamedUser | null | undefined): string {
  const fromName = `${firstLetter(user?.first_name)}${firstLetter(user?.last_name)}`;
  if (fromName) return fromName.toUpperCase();
  const fromEmail = firstLetter(user?.email);
  if (fromEmail) return fromEmail.toUpperCase();
  return 'U';
}

/** The name to show: full_name from the server, else first and last name, else the email. */
export function displayName(user: NamedUser & { full_name?: string | null }): string {
  const full = (user.full_name ?? '').trim();
  if (full) return full;
  const joined = [user.first_name, user.last_name].map((part) => (part ?? '').trim()).filter(Boolean).join(' ');
  return joined || (user.email ?? '');
}
