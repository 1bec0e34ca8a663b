/** One step of the dashboard's getting-started checklist. */
export interface SetupStep {
  id: 'domain' | 'contacts' | 'postal-address' | 'first-campaign';
  title: string;
  description: string;
  /** Where the step is done. */
  href: string;
  action: string;
  /** undefined while its data loads. */
  done: boolean | undefined;
}

/** What the steps are read from: all real data of the account (undefined while loading). */
export interface SetupFacts {
  verifiedDomains: number | undefined;
  activeContacts: number | undefined;
  postalAddress: string | undefined;
  /** Campaigns that are sending or sent. */
  sentCampaigns: number | undefined;
}

/**
 * The getting-started checklist for a new account (first-hour findings): verify a domain, add
 * contacts, set the postal address the footer needs, send a first campaign.
 */
export function setupSteps(facts: SetupFacts): SetupStep[] {
  const atLeastOne = (count: number | undefined) => (count === undefined ? undefined : count > 0);
  return [
    {
      id: 'domain',
      title: 'Verify your sending domain',
      description: 'Publish the DNS records so your mail is signed with your own domain.',
      href: '/domain-settings',
      action: 'Set up a domain',
      done: atLeastOne(facts.verifiedDomains),
    },
    {
      id: 'contacts',
      title: 'Add your contacts',
      description: 'Import a CSV (Mailchimp, Brevo, HubSpot and Google exports work) or add people one by one.',
      href: '/contacts',
      action: 'Add contacts',
      done: atLeastOne(facts.activeContacts),
    },
    {
      id: 'postal-address',
      title: 'Add your postal address',
      description: 'Every marketing email carries it in the footer; sending needs it.',
      href: '/profile',
      action: 'Open your profile',
      done: facts.postalAddress === undefined ? undefined : facts.postalAddress.trim() !== '',
    },
    {
      id: 'first-campaign',
      title: 'Send your first campaign',
      description: 'Start from the spring template, check it, and send it to a list.',
      href: '/campaigns?new=1',
      action: 'Create your first campaign',
      done: atLeastOne(facts.sentCampaigns),
    },
  ];
}

/** The checklist shows while its data is known and some step is not done. */
export function showSetupChecklist(steps: readonly SetupStep[]): boolean {
  return steps.every((step) => step.done !== undefined) && steps.some((step) => !step.done);
}
