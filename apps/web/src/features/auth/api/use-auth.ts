import { useQuery } from '@tanstack/react-query';
import type { CurrentUser, SessionProbe } from '@sendwell/contract/auth';

import { rememberPublicUrl } from '@/lib/public-url';

/** Query key of the session user; the URL doubles as the key, as everywhere in the app. */
export const CURRENT_USER_KEY = ['/api/auth/user'] as const;

/** The quiet session probe: 200 signed in or not, so a signed-out page logs no failed request. */
const SESSION_PROBE_URL = '/api/auth/session';

/**
 * The session user through GET /api/auth/session (user null means signed out, as a 401 from
 * GET /api/auth/user does); it also brings the PUBLIC_URL every shown address is built from.
 * Any failure is 'Failed to fetch user'.
 */
async function fetchCurrentUser(): Promise<CurrentUser | null> {
  let res: Response;
  try {
    res = await fetch(SESSION_PROBE_URL, { credentials: 'include' });
  } catch {
    throw new Error('Failed to fetch user');
  }
  if (!res.ok) throw new Error('Failed to fetch user');
  const probe = (await res.json()) as SessionProbe;
  rememberPublicUrl(probe.publicUrl);
  return probe.user;
}

/** The session state (spec §3): user, isLoading, isAuthenticated and passwordChangeRequired. */
export function useAuth() {
  const query = useQuery({ queryKey: CURRENT_USER_KEY, queryFn: fetchCurrentUser, retry: false });
  const user = query.data ?? null;
  return {
    user,
    isLoading: query.isLoading,
    isAuthenticated: user !== null,
    passwordChangeRequired: user?.passwordChangeRequired ?? false,
    error: query.error,
  };
}
