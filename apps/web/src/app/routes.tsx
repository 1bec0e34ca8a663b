import { lazy, type ComponentType } from 'react';

import { matchesRoutePath } from '@/lib/nav';
import LandingPage from '@/pages/landing';
import LoginPage from '@/pages/login';
import SignupPage from '@/pages/signup';

// The public entry pages load with the app; every other page is its own chunk, fetched on first visit.
const AnalyticsPage = lazy(() => import('@/pages/analytics'));
const BillingPage = lazy(() => import('@/pages/billing'));
const CampaignsPage = lazy(() => import('@/pages/campaigns'));
const CampaignReportPage = lazy(() => import('@/pages/campaign-report'));
const CheckoutSuccessPage = lazy(() => import('@/pages/checkout-success'));
const ContactSegmentsPage = lazy(() => import('@/pages/contact-segments'));
const ContactsPage = lazy(() => import('@/pages/contacts'));
const SuppressionsPage = lazy(() => import('@/pages/suppressions'));
const DashboardPage = lazy(() => import('@/pages/dashboard'));
const DomainSettingsPage = lazy(() => import('@/pages/domain-settings'));
const ForgotPasswordPage = lazy(() => import('@/pages/forgot-password'));
const ResetPasswordPage = lazy(() => import('@/pages/reset-password'));
const EmailSequencesPage = lazy(() => import('@/pages/email-sequences'));
const LeadGenerationPage = lazy(() => import('@/pages/lead-generation'));
const OutboxPage = lazy(() => import('@/pages/outbox'));
const OutboxMessagePage = lazy(() => import('@/pages/outbox-message'));
const ProfilePage = lazy(() => import('@/pages/profile'));
const SettingsPage = lazy(() => import('@/pages/settings'));
const ApiReferencePage = lazy(() => import('@/pages/api-reference'));
const UnlimitedSetupPage = lazy(() => import('@/pages/unlimited-setup'));
const WebhooksPage = lazy(() => import('@/pages/webhooks'));
const WebhookEndpointPage = lazy(() => import('@/pages/webhook-endpoint'));

/**
 * Who may see a route:
 * - 'signed-out': visitors only; a signed-in user is redirected to / (the dashboard for '/');
 * - 'signed-in': users only; a visitor gets the 'Unauthorized' toast and goes to /api/login;
 * - 'any': both (pages reached from outside the app, such as the payment provider's return URL).
 */
type RouteGuard = 'signed-out' | 'signed-in' | 'any';

export interface AppRoute {
  path: string;
  guard: RouteGuard;
  component: ComponentType;
  /** 'shell' renders inside the signed-in top bar and sidebar; 'bare' renders the page alone. */
  layout: 'shell' | 'bare';
}

/** The route table (spec §2). One line per route; the first match for the visitor's state wins. */
const ROUTES: readonly AppRoute[] = [
  { path: '/', guard: 'signed-out', layout: 'bare', component: LandingPage },
  { path: '/login', guard: 'signed-out', layout: 'bare', component: LoginPage },
  { path: '/signup', guard: 'signed-out', layout: 'bare', component: SignupPage },
  { path: '/forgot-password', guard: 'signed-out', layout: 'bare', component: ForgotPasswordPage },
  // 'any': a signed-in user who follows the mailed link can still set the password.
  { path: '/reset-password', guard: 'any', layout: 'bare', component: ResetPasswordPage },
  { path: '/checkout/success', guard: 'any', layout: 'bare', component: CheckoutSuccessPage },
  { path: '/unlimited-setup', guard: 'any', layout: 'bare', component: UnlimitedSetupPage },
  { path: '/', guard: 'signed-in', layout: 'shell', component: DashboardPage },
  { path: '/campaigns', guard: 'signed-in', layout: 'shell', component: CampaignsPage },
  { path: '/campaigns/:id/report', guard: 'signed-in', layout: 'shell', component: CampaignReportPage },
  { path: '/outbox', guard: 'signed-in', layout: 'shell', component: OutboxPage },
  { path: '/outbox/:id', guard: 'signed-in', layout: 'shell', component: OutboxMessagePage },
  { path: '/contacts', guard: 'signed-in', layout: 'shell', component: ContactsPage },
  { path: '/contacts/suppressions', guard: 'signed-in', layout: 'shell', component: SuppressionsPage },
  { path: '/contact-segments', guard: 'signed-in', layout: 'shell', component: ContactSegmentsPage },
  { path: '/domain-settings', guard: 'signed-in', layout: 'shell', component: DomainSettingsPage },
  { path: '/lead-generation', guard: 'signed-in', layout: 'shell', component: LeadGenerationPage },
  { path: '/email-sequences', guard: 'signed-in', layout: 'shell', component: EmailSequencesPage },
  { path: '/analytics', guard: 'signed-in', layout: 'shell', component: AnalyticsPage },
  { path: '/billing', guard: 'signed-in', layout: 'shell', component: BillingPage },
  { path: '/settings', guard: 'signed-in', layout: 'shell', component: SettingsPage },
  { path: '/webhooks', guard: 'signed-in', layout: 'shell', component: WebhooksPage },
  { path: '/webhooks/:id', guard: 'signed-in', layout: 'shell', component: WebhookEndpointPage },
  { path: '/settings/api-reference', guard: 'signed-in', layout: 'shell', component: ApiReferencePage },
  { path: '/profile', guard: 'signed-in', layout: 'shell', component: ProfilePage },
];

export type RouteResolution =
  { kind: 'page'; route: AppRoute } | { kind: 'redirect-home' } | { kind: 'unauthorized' } | { kind: 'not-found' };

/** Decides what a path shows for a signed-in user or a visitor. */
export function resolveRoute(path: string, signedIn: boolean, routes: readonly AppRoute[] = ROUTES): RouteResolution {
  const matches = routes.filter((route) => matchesRoutePath(route.path, path));
  const allowed = matches.find(
    (route) => route.guard === 'any' || route.guard === (signedIn ? 'signed-in' : 'signed-out'),
  );
  if (allowed) return { kind: 'page', route: allowed };
  if (matches.length > 0) return signedIn ? { kind: 'redirect-home' } : { kind: 'unauthorized' };
  return { kind: 'not-found' };
}
