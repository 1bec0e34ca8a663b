import { z } from 'zod';

/** How many single sender addresses an account may keep. */
export const MAX_SENDER_ADDRESSES = 20;

export const senderAddressStatusSchema = z.enum(['pending', 'confirmed']);
export type SenderAddressStatus = z.infer<typeof senderAddressStatusSchema>;

/** A single address the account sends from once it followed the link mailed to it. */
export const senderAddressSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  status: senderAddressStatusSchema,
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
  /** When the last confirmation link went out. */
  confirmationSentAt: z.string().nullable(),
});
export type SenderAddress = z.infer<typeof senderAddressSchema>;

/**
 * GET /api/sender-addresses: everything the account may send from. Any address at a verified
 * domain (or a subdomain of one); the account's own address once confirmed; each confirmed
 * sender address. Pending addresses are listed so they can be confirmed or removed.
 */
export const senderOverviewSchema = z.object({
  accountEmail: z.object({ email: z.string(), confirmed: z.boolean() }),
  verifiedDomains: z.array(z.string()),
  addresses: z.array(senderAddressSchema),
});
export type SenderOverview = z.infer<typeof senderOverviewSchema>;

/** POST /api/sender-addresses */
export const addSenderAddressBodySchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(254, 'Email must be at most 254 characters')
    .pipe(z.email('Please enter a valid email address'))
    .transform((value) => value.toLowerCase()),
});
export type AddSenderAddressBody = z.input<typeof addSenderAddressBodySchema>;
