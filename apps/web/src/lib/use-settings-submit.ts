import { useState } from 'react';
import type { z } from 'zod';

import { toastError } from './toast-error';
import { toast } from './use-toast';

/**
 * A settings form's Save: the draft checked against the request's contract (its first problem shown
 * in the form, nothing sent), then saved, with a toast for the answer (the server's 4xx message, or
 * the fallback). Shared by the account's settings cards (bounces, sunset policy, brand kit).
 */
export function useSettingsSubmit<Body>(options: {
  schema: z.ZodType<Body>;
  save: (body: Body) => Promise<unknown>;
  saved: { title: string; description?: string };
  /** The toast when the save fails without a message of the server's. */
  failed: string;
  /** The problem shown when the contract names none. */
  invalid: string;
}) {
  const [problem, setProblem] = useState<string | null>(null);
  const submit = async (event: React.FormEvent, draft: unknown) => {
    event.preventDefault();
    const parsed = options.schema.safeParse(draft);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? options.invalid);
      return;
    }
    setProblem(null);
    try {
      await options.save(parsed.data);
      toast(options.saved);
    } catch (failure) {
      toastError(failure, options.failed, { serverMessage: 'client-error' });
    }
  };
  return { problem, submit };
}
