import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';

import { getQueryFn, isUnauthorizedError } from './api';
import { redirectToLogin } from './unauthorized';

/**
 * The app's one query client (spec §9): no refetch interval, no refetch on focus, data never
 * stale, no retries. A 401 'Unauthorized' from any data call sends the browser to the login page.
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error) => {
      if (isUnauthorizedError(error)) redirectToLogin();
    },
  }),
  mutationCache: new MutationCache({
    onError: (error) => {
      if (isUnauthorizedError(error)) redirectToLogin();
    },
  }),
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      refetchInterval: false,
      refetchOnWindowFocus: false,
      staleTime: Infinity,
      retry: false,
    },
    mutations: {
      retry: false,
    },
  },
});
