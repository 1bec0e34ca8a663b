import { useQuery } from '@tanstack/react-query';
import { purchasablePlanIds, type Plan, type PlansResponse } from '@sendwell/contract/billing';

/** GET /api/pricing/plans: an object of plans keyed by id. */
const PLANS_KEY = ['/api/pricing/plans'] as const;

export function usePlans() {
  return useQuery<PlansResponse>({ queryKey: PLANS_KEY });
}

/** A plan a visitor can buy ('unlimited' is granted, never bought). */
export type PurchasablePlanId = (typeof purchasablePlanIds)[number];

export function isPurchasablePlanId(id: string | null | undefined): id is PurchasablePlanId {
  return (purchasablePlanIds as readonly (string | null | undefined)[]).includes(id);
}

/** The plans a visitor can buy (starter, pro, enterprise), in catalogue order, skipping missing ones. */
export function purchasablePlans(plans: PlansResponse | undefined): Plan[] {
  if (!plans) return [];
  return purchasablePlanIds.flatMap((id) => {
    const plan = plans[id];
    return plan ? [plan] : [];
  });
}
