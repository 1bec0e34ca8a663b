import { BarChart3, Filter, Globe, LayoutTemplate, Target, Workflow } from 'lucide-react';

const FEATURES = [
  {
    icon: LayoutTemplate,
    title: 'Drag-and-drop editor',
    text: 'Build responsive emails from blocks, preview them on desktop and mobile, and send yourself a test.',
  },
  {
    icon: Globe,
    title: 'Custom domain sending',
    text: 'Verify SPF, DKIM and DMARC with real DNS checks and send from addresses on your own domain.',
  },
  {
    icon: Workflow,
    title: 'Automated sequences',
    text: 'Design multi-step flows with emails, waits and conditions on a visual canvas.',
  },
  {
    icon: Filter,
    title: 'Contact segments',
    text: 'Group contacts by engagement, location or job title with rules that keep themselves up to date.',
  },
  {
    icon: Target,
    title: 'Lead generation',
    text: 'Find prospects by profession, location and platform, then move them into your lists.',
  },
  {
    icon: BarChart3,
    title: 'Real analytics',
    text: 'Opens, clicks and unsubscribes tracked per campaign, so you know what actually works.',
  },
];

/** #features: the product's main capabilities. */
export function FeaturesSection() {
  return (
    <section id="features" aria-labelledby="features-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <div className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">Features</p>
        <h2 id="features-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
          Everything you need to reach the inbox
        </h2>
        <p className="text-muted-foreground mt-4 text-lg">
          One platform for campaigns, automation, contacts and deliverability.
        </p>
      </div>
      <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map(({ icon: Icon, title, text }) => (
          <li key={title} className="bg-card rounded-xl border p-6 shadow-xs transition-shadow hover:shadow-md">
            <span className="flex size-10 items-center justify-center rounded-lg bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <h3 className="mt-4 font-semibold">{title}</h3>
            <p className="text-muted-foreground mt-2 text-sm">{text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
