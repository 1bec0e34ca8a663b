import { describe, expect, it } from 'vitest';

import { setupSteps, showSetupChecklist } from './getting-started-steps';

describe('setupSteps', () => {
  it('shows for a new account and disappears once every step is done', () => {
    const fresh = setupSteps({ verifiedDomains: 0, activeContacts: 0, postalAddress: '', sentCampaigns: 0 });
    expect(fresh.map((step) => step.done)).toEqual([false, false, false, false]);
    expect(showSetupChecklist(fresh)).toBe(true);
    const done = setupSteps({ verifiedDomains: 1, activeContacts: 200, postalAddress: '1 Lane', sentCampaigns: 1 });
    expect(showSetupChecklist(done)).toBe(false);
  });

  it('waits for its data rather than flashing', () => {
    const loading = setupSteps({ verifiedDomains: undefined, activeContacts: 0, postalAddress: '', sentCampaigns: 0 });
    expect(showSetupChecklist(loading)).toBe(false);
  });
});
