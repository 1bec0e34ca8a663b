import { z } from 'zod';
import { planIdSchema } from './pricing.ts';

/** POST /api/payment/create-checkout */
export const createCheckoutBodySchema = z.object({ planId: planIdSchema });
export const checkoutResponseSchema = z.object({ url: z.string() });
