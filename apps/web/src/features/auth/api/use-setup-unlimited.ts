import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { setupUnlimitedBodySchema, setupUnlimitedResponseSchema } from '@sendwell/contract/auth';

import { ApiError, apiJson } from '@/lib/api';

type SetupUnlimitedBody = z.input<typeof setupUnlimitedBodySchema>;
type SetupUnlimitedResponse = z.infer<typeof setupUnlimitedResponseSchema>;

/**
 * POST /api/admin/setup-unlimited-user. A refusal answered with a non-2xx status but a
 * `{ success: false, message }` body is returned as that body, so the caller treats it like a 200
 * refusal; only a failure without such a body (network, 5xx) rejects.
 */
export function useSetupUnlimited() {
  return useMutation({
    mutationFn: async (body: SetupUnlimitedBody): Promise<SetupUnlimitedResponse> => {
      try {
        return await apiJson<SetupUnlimitedResponse>('POST', '/api/admin/setup-unlimited-user', body);
      } catch (err) {
        if (err instanceof ApiError && err.status < 500 && err.body && typeof err.body === 'object') {
          const refusal = err.body as Partial<SetupUnlimitedResponse>;
          return { success: false, message: typeof refusal.message === 'string' ? refusal.message : '' };
        }
        throw err;
      }
    },
  });
}
