import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ChangePasswordBody,
  CurrentUser,
  ForgotPasswordBody,
  LoginBody,
  ResetPasswordBody,
  SignupBody,
  UpdateProfileBody,
} from '@sendwell/contract/auth';

import { apiJson, apiRequest } from '@/lib/api';
import { CURRENT_USER_KEY } from './use-auth';

/** POST /api/auth/login. */
export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) => apiJson<CurrentUser>('POST', '/api/auth/login', body),
  });
}

/** POST /api/auth/signup (sets the session cookie). */
export function useSignup() {
  return useMutation({
    mutationFn: (body: SignupBody) => apiJson<CurrentUser>('POST', '/api/auth/signup', body),
  });
}

/** POST /api/auth/change-password; afterwards the session no longer needs a password change. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => apiJson<{ success: true }>('POST', '/api/auth/change-password', body),
    onSuccess: () => {
      queryClient.setQueryData<CurrentUser | null>(CURRENT_USER_KEY, (user) =>
        user ? { ...user, passwordChangeRequired: false } : user,
      );
    },
  });
}

/** PATCH /api/auth/user; the answer replaces the cached session user. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileBody) => apiJson<CurrentUser>('PATCH', '/api/auth/user', body),
    onSuccess: (user) => {
      queryClient.setQueryData(CURRENT_USER_KEY, user);
    },
  });
}

/** POST /api/auth/resend-confirmation: another link to confirm the account's own address (one a minute). */
export function useResendConfirmation() {
  return useMutation({
    mutationFn: () => apiJson<{ success: true }>('POST', '/api/auth/resend-confirmation'),
  });
}

/** Where the browser goes after logging out, whatever the server answered (spec §4). */
const AFTER_LOGOUT_PATH = '/login';

/** POST /api/auth/logout, then a full navigation to /login; a failure is logged, not shown. */
export async function logout(): Promise<void> {
  try {
    await apiRequest('POST', '/api/auth/logout');
  } catch (err) {
    console.error('Logout failed', err);
  } finally {
    window.location.href = AFTER_LOGOUT_PATH;
  }
}

/** POST /api/auth/forgot-password: the same answer whether or not the address has an account. */
export function useForgotPassword() {
  return useMutation({
    mutationFn: (body: ForgotPasswordBody) => apiJson<{ message: string }>('POST', '/api/auth/forgot-password', body),
  });
}

/** POST /api/auth/reset-password: the mailed link's token and the new password. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordBody) => apiJson<{ success: true }>('POST', '/api/auth/reset-password', body),
  });
}
