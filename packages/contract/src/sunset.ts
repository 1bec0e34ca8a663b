import { z } from 'zod';

/**
 * The sunset policy (issue 33 part 6): contacts who were mailed at least `minMessages` times in the
 * last `inactiveDays` days without a human open or click start a re-engagement period (entering the
 * chosen re-engagement sequence, if any); when `graceDays` pass without a human open or click, they
 * are suppressed with the reason "unengaged". On by default: mailing people who never read is what
 * mailbox providers punish.
 */
export const SUNSET_DEFAULTS = { enabled: true, inactiveDays: 180, minMessages: 10, graceDays: 30 } as const;

const wholeNumber = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be from ${min} to ${max}`)
    .max(max, `${field} must be from ${min} to ${max}`);

/** PUT /api/sunset-policy: the whole policy (the settings form sends every field). */
export const sunsetPolicyBodySchema = z.object(
  {
    enabled: z.boolean({ error: 'enabled must be true or false' }),
    inactiveDays: wholeNumber('Days without engagement', 30, 730),
    minMessages: wholeNumber('Messages received', 1, 100),
    graceDays: wholeNumber('Days to re-engage', 7, 90),
    /** The sequence a contact enters when their re-engagement period starts; null for none. */
    reengagementSequenceId: z.number().int().positive('reengagementSequenceId must be a sequence id').nullable(),
  },
  { error: 'Send the sunset policy as an object' },
);
export type SunsetPolicyBody = z.infer<typeof sunsetPolicyBodySchema>;

/** GET/PUT /api/sunset-policy: the policy and where the account's contacts stand under it now. */
export const sunsetPolicySchema = sunsetPolicyBodySchema.extend({
  reengagementSequenceName: z.string().nullable(),
  /** Contacts in their re-engagement period now. */
  reengaging: z.number().int(),
  /** Addresses suppressed by the policy (reason "unengaged"), still on the suppression list. */
  suppressed: z.number().int(),
  /** When the policy last ran for the account; null before its first run. */
  lastRunAt: z.string().nullable(),
});
export type SunsetPolicy = z.infer<typeof sunsetPolicySchema>;

/** GET /api/contacts/:id/sunset: where one contact stands under the policy. */
export const contactSunsetSchema = z.object({
  /** 'reengaging': in the re-engagement period since `since`, suppressed on `suppressesAt` unless they act. */
  state: z.enum(['engaged', 'reengaging', 'unengaged']),
  since: z.string().nullable(),
  suppressesAt: z.string().nullable(),
});
export type ContactSunset = z.infer<typeof contactSunsetSchema>;
