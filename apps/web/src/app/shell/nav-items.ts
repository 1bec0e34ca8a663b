import {
  BarChart3,
  CreditCard,
  Filter,
  Globe,
  Inbox,
  LayoutDashboard,
  Mail,
  Settings,
  Target,
  Users,
  Webhook,
  Workflow,
  type LucideIcon,
} from 'lucide-react';

export interface NavItem {
  label: string;
  href: string;
  icon: LucideIcon;
}

/** Sidebar entries, in the order of spec §2; Outbox (the built-in mail catcher's page, DESIGN.md) follows Campaigns. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', href: '/', icon: LayoutDashboard },
  { label: 'Campaigns', href: '/campaigns', icon: Mail },
  { label: 'Outbox', href: '/outbox', icon: Inbox },
  { label: 'Email Sequences', href: '/email-sequences', icon: Workflow },
  { label: 'Contacts', href: '/contacts', icon: Users },
  { label: 'Contact Segments', href: '/contact-segments', icon: Filter },
  { label: 'Lead Generation', href: '/lead-generation', icon: Target },
  { label: 'Domain Settings', href: '/domain-settings', icon: Globe },
  { label: 'Analytics', href: '/analytics', icon: BarChart3 },
  { label: 'Billing', href: '/billing', icon: CreditCard },
  { label: 'Webhooks', href: '/webhooks', icon: Webhook },
  { label: 'Settings', href: '/settings', icon: Settings },
];
