import type { Plan, PlanId, PlansResponse } from '@sendwell/contract/billing';

/** The only source of plan data: the API, billing and the landing page all read it from here. */
export const planCatalogue: PlansResponse = {
  starter: {
    id: 'starter',
    name: 'Starter',
    description: 'For small businesses sending their first campaigns from their own domain.',
    price: 19,
    popular: false,
    features: [
      'Up to 2,500 subscribers',
      '15,000 emails per month',
      'Custom domain sending',
      'Drag and drop editor',
      'Basic analytics',
      'Email support',
    ],
    limits: { subscribers: 2500, emailsPerMonth: 15000, domains: 1 },
    cta: { label: 'Start Free Trial', href: '/signup' },
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    description: 'For growing teams that automate their outreach.',
    price: 49,
    popular: true,
    features: [
      'Up to 10,000 subscribers',
      '100,000 emails per month',
      'Advanced automation',
      'A/B testing',
      'Advanced analytics',
      'Priority support',
    ],
    limits: { subscribers: 10000, emailsPerMonth: 100000, domains: 5 },
    cta: { label: 'Start Free Trial', href: '/signup' },
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    description: 'For organisations sending at scale with dedicated infrastructure.',
    price: 149,
    popular: false,
    features: [
      'Unlimited subscribers and emails',
      'Dedicated IP',
      'Multi-user accounts',
      'API access',
      'White-label',
      '24/7 phone support',
    ],
    limits: { subscribers: null, emailsPerMonth: null, domains: null },
    cta: { label: 'Contact Sales', href: 'mailto:sales@sendwell.dev?subject=Sendwell%20Enterprise' },
  },
  unlimited: {
    id: 'unlimited',
    name: 'Unlimited Pro',
    description: 'Granted plan with no limits on subscribers, emails or domains.',
    price: 0,
    popular: false,
    features: [
      'Unlimited subscribers and emails',
      'Custom domain sending',
      'Advanced automation',
      'A/B testing',
      'Advanced analytics',
      'API access',
      'Priority support',
      'White-label options',
    ],
    limits: { subscribers: null, emailsPerMonth: null, domains: null },
    cta: { label: 'Activate', href: '/unlimited-setup' },
  },
};

export function planById(id: PlanId): Plan {
  return planCatalogue[id];
}
