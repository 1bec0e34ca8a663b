import { useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@sendwell/contract/auth';

/** Query key of the session user; the URL doubles as the key, as everywhere in the app. */
export const CURRENT_USER_KEY = ['/api/auth/user'] as const;

/** GET /api/auth/user: 401 means signed out (null); any other failure is 'Failed to fetch user'. */
async function fetchCurrentUser(): Promise<CurrentUser | null> {
  let res: Response;
  try {
    res = await fetch(CURRENT_USER_KEY[0], { credentials: 'include' });
  } catch {
    throw new Error('Failed to fetch user');
  }
  if (res.status === 401) return null;
  if (!res.ok) throw new Error('Failed to fetch user');
  return (await res.json()) as CurrentUser;
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
