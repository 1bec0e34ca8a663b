/** The parts of the session user the avatar and menu need. */
export interface UserNameParts {
  firstName?: string | null;
  email?: string | null;
}

/** Avatar fallback (spec §2): first letter of the first name, else of the email, else 'U'; upper-case. */
export function avatarFallbackLetter(user: UserNameParts | null | undefined): string {
  const source = user?.firstName?.trim() || user?.email?.trim() || '';
  const letter = source.charAt(0);
  return letter ? letter.toUpperCase() : 'U';
}

/** The name shown in the avatar menu: the first name, or the email when there is none. */
export function displayName(user: UserNameParts | null | undefined): string {
  return user?.firstName?.trim() || user?.email?.trim() || '';
}
