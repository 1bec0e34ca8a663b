import { z } from 'zod';
import { timeZoneSchema } from './time-zones.ts';
import { planIdSchema, purchasablePlanIds, subscriptionStatusSchema } from './billing.ts';

/** Shortest password accepted anywhere (spec part 1 §9). */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';
/** The server refuses passwords on a common-password list (sign-up and every password change). */
export const PASSWORD_TOO_COMMON = 'This password is too common. Choose one that is harder to guess.';
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const EMAIL_TAKEN = 'An account with this email already exists';

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .pipe(z.email('Please enter a valid email address'))
  .transform((value) => value.toLowerCase());

const newPassword = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
  .max(256, 'Password must be at most 256 characters long');

const requiredName = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

/** POST /api/auth/forgot-password: the answer is the same whether or not an account has this address. */
export const forgotPasswordBodySchema = z.object({ email });
export type ForgotPasswordBody = z.input<typeof forgotPasswordBodySchema>;
export const forgotPasswordResponseSchema = z.object({ message: z.string() });
export const FORGOT_PASSWORD_ANSWER =
  'If an account uses this address, we have emailed it a link to choose a new password. The link works for one hour.';

/** POST /api/auth/reset-password: the mailed link's token and the new password. */
export const resetPasswordBodySchema = z
  .object({
    token: z.string({ error: 'The reset link is incomplete' }).min(1, 'The reset link is incomplete').max(600),
    password: newPassword,
    confirmPassword: z.string({ error: 'Please confirm your password' }),
  })
  .refine((body) => body.password === body.confirmPassword, {
    message: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
  });
export type ResetPasswordBody = z.input<typeof resetPasswordBodySchema>;
export const RESET_LINK_INVALID =
  'This link has expired or was already used. Ask for a new one on the Forgot password page.';

/** POST /api/auth/signup */
export const signupBodySchema = z
  .object({
    email,
    password: newPassword,
    confirmPassword: z.string({ error: 'Please confirm your password' }),
    firstName: requiredName('First name'),
    lastName: requiredName('Last name'),
    company: z.string().trim().max(200, 'Company must be at most 200 characters').optional().default(''),
    plan: z.enum(purchasablePlanIds, { error: 'Please choose a valid plan' }).optional().default('pro'),
    // The client sends the price it showed; the server always charges the catalogue's price.
    planPrice: z.number().optional(),
    /**
     * The browser's IANA time zone, the account's default for schedules. Not checked here: a zone
     * this server does not know must not stop a sign-up, so the server falls back to UTC.
     */
    timeZone: z.string().trim().max(64).optional(),
  })
  .refine((body) => body.password === body.confirmPassword, {
    message: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
  });
export type SignupBody = z.input<typeof signupBodySchema>;

/** POST /api/auth/login */
export const loginBodySchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .transform((v) => v.toLowerCase()),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(256),
});
export type LoginBody = z.input<typeof loginBodySchema>;

/**
 * POST /api/auth/change-password. currentPassword is required unless the session is on a temporary
 * password (the forced dialog), so a borrowed session cannot silently take over the account.
 */
export const changePasswordBodySchema = z.object({ newPassword, currentPassword: z.string().max(256).optional() });
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>;

/** The forced password-change dialog's form (newPassword is what is sent). */
export const changePasswordFormSchema = z
  .object({ newPassword, confirmPassword: z.string().min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT) })
  .refine((form) => form.newPassword === form.confirmPassword, {
    message: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
  });

/** GET /api/auth/user */
export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string(),
  postalAddress: z.string(),
  profileImageUrl: z.string().nullable(),
  passwordChangeRequired: z.boolean(),
  plan: planIdSchema,
  subscriptionStatus: subscriptionStatusSchema.nullable(),
  trialEndsAt: z.string().nullable(),
  createdAt: z.string(),
  /** When the owner followed the link mailed at sign-up; null until then, and the account sends nothing. */
  emailConfirmedAt: z.string().nullable(),
  /** The account's IANA time zone: schedules are read and times shown in it unless a campaign picks its own. */
  timeZone: z.string(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/**
 * GET /api/auth/session: the web app's quiet session probe. It answers 200 signed in or not (user
 * null when signed out), so a signed-out page logs no failed request; GET /api/auth/user keeps the
 * spec's contract (401 means signed out). publicUrl is the one base every address the app shows
 * or mails is built from (PUBLIC_URL).
 */
export const sessionProbeSchema = z.object({
  user: currentUserSchema.nullable(),
  publicUrl: z.string(),
});
export type SessionProbe = z.infer<typeof sessionProbeSchema>;

/** PATCH /api/auth/user: the profile page's fields. */
export const updateProfileBodySchema = z
  .object({
    firstName: requiredName('First name'),
    lastName: requiredName('Last name'),
    company: z.string().trim().max(200, 'Company must be at most 200 characters'),
    postalAddress: z.string().trim().max(500, 'Postal address must be at most 500 characters'),
    /** The account's default time zone (Settings → Time zone). */
    timeZone: timeZoneSchema,
  })
  .partial();
export type UpdateProfileBody = z.input<typeof updateProfileBodySchema>;

export const okSchema = z.object({ success: z.literal(true) });

/** The banner's text while the account's own address is unconfirmed (the web shows it with a Resend link). */
export const CONFIRM_EMAIL_BANNER = 'Confirm your email address to send campaigns';

/** POST /api/admin/setup-unlimited-user: checked only by the supplied credentials and the server's entitlement list. */
export const setupUnlimitedBodySchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .transform((v) => v.toLowerCase()),
  password: z.string().min(1, 'Password is required'),
});
export const setupUnlimitedResponseSchema = z.object({ success: z.boolean(), message: z.string() });
