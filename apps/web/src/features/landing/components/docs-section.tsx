import { BookOpen, Globe, Send, Upload } from 'lucide-react';

const STEPS = [
  {
    id: 'docs-getting-started',
    icon: BookOpen,
    title: 'Create your account',
    text: 'Pick a plan and start your 14-day free trial. Your dashboard is ready straight away.',
  },
  {
    id: 'docs-domain-setup',
    icon: Globe,
    title: 'Connect your domain',
    text: 'Add your sending domain under Domain Settings and publish the SPF, DKIM and DMARC records we show you. DNS changes can take 24-48 hours to propagate.',
  },
  {
    id: 'docs-import-contacts',
    icon: Upload,
    title: 'Import your contacts',
    text: 'Upload a CSV file, preview the first rows and put your contacts into a list.',
  },
  {
    id: 'docs-first-campaign',
    icon: Send,
    title: 'Send your first campaign',
    text: 'Design an email in the editor, choose your recipient lists and send it now or schedule it for later.',
  },
];

/** #docs: a short getting-started guide. */
export function DocsSection() {
  return (
    <section id="docs" aria-labelledby="docs-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
      <div className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-semibold tracking-wide text-indigo-700 uppercase dark:text-indigo-300">Docs</p>
        <h2 id="docs-title" className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
          Up and running in four steps
        </h2>
        <p className="text-muted-foreground mt-4 text-lg">
          The essentials of getting from sign-up to your first delivered campaign.
        </p>
      </div>
      <ol className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {STEPS.map(({ id, icon: Icon, title, text }, index) => (
          <li key={id} id={id} className="bg-card relative rounded-xl border p-6 shadow-xs">
            <span className="text-muted-foreground text-sm font-semibold">Step {index + 1}</span>
            <Icon className="mt-3 size-6" aria-hidden="true" />
            <h3 className="mt-3 font-semibold">{title}</h3>
            <p className="text-muted-foreground mt-2 text-sm">{text}</p>
          </li>
        ))}
      </ol>
      <div className="bg-card mx-auto mt-10 max-w-3xl overflow-hidden rounded-xl border">
        <p className="bg-muted/60 border-b px-4 py-2 text-sm font-medium">Example DNS records</p>
        <pre
          tabIndex={0}
          aria-label="Example DNS records"
          className="focus-visible:ring-ring/50 overflow-x-auto p-4 text-xs leading-relaxed outline-none focus-visible:ring-[3px] sm:text-sm"
        >
          <code>{`yourcompany.com.         TXT    "v=spf1 include:_spf.sendwell.example ~all"
sw1._domainkey           TXT    "v=DKIM1; k=rsa; p=MIIBIjANBgkq..."
_dmarc.yourcompany.com.  TXT    "v=DMARC1; p=none; rua=mailto:dmarc@yourcompany.com"`}</code>
        </pre>
      </div>
    </section>
  );
}
