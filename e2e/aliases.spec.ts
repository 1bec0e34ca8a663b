import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { dnsRecordsFile } from './global-setup.ts';
import { checkScreen, confirmAccountEmail, followConfirmationLink, outboxLink, uniqueEmail } from './support.ts';

async function signUpWithDomain(page: Page, domain: string): Promise<string> {
  const email = uniqueEmail('aliases');
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email,
      password: 'alias-lantern-42',
      confirmPassword: 'alias-lantern-42',
      firstName: 'Ida',
      lastName: 'Forwarder',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  await confirmAccountEmail(page);
  const added = await page.request.post('/api/domains', { data: { domain } });
  expect(added.ok()).toBe(true);
  // Verified: an alias receives (and a test message reaches it) only on a domain its account
  // proved, its records published on the local DNS server (added to what it holds) and checked.
  const { id, records } = (await added.json()) as AddedDomain;
  let zone: Record<string, string[]> = {};
  try {
    zone = JSON.parse(readFileSync(dnsRecordsFile(), 'utf8')) as Record<string, string[]>;
  } catch {
    // no records file yet
  }
  for (const record of records) zone[record.host] = [record.value];
  writeFileSync(dnsRecordsFile(), JSON.stringify(zone));
  const verified = (await (await page.request.post(`/api/domains/${id}/verify`)).json()) as { isVerified: boolean };
  expect(verified.isVerified).toBe(true);
  return email;
}

/** The figure an Analytics card shows. */
const stat = (page: Page, label: string) => page.getByTestId(`stat-${label}`);

test('aliases: create one, confirm its destination from the Outbox, add a rule and a destination, test, and see Analytics move', async ({
  page,
}) => {
  // Several screens checked with axe, and real mail through the forwarding pipeline.
  test.setTimeout(240_000);
  const domain = `fwd-${Date.now()}.test`;
  await signUpWithDomain(page, domain);
  const inbox = uniqueEmail('inbox');
  const teammate = uniqueEmail('teammate');

  // ── Basic Aliases: empty state, the simple form's §5 texts ─────────────────────────
  await page.goto('/domain-settings?tab=basic-aliases');
  const basic = page.getByRole('tabpanel', { name: 'Basic Aliases' });
  await expect(basic.getByRole('heading', { name: 'No aliases yet' })).toBeVisible();
  await expect(basic.getByRole('heading', { name: 'Popular aliases' })).toBeVisible();
  await basic.getByRole('button', { name: 'Add Alias' }).click();
  await expect(basic.getByText('Alias is required')).toBeVisible();
  await expect(basic.getByText('Destination email is required')).toBeVisible();
  await basic.getByLabel('Alias', { exact: true }).fill('-bad alias');
  await basic.getByLabel('Forward to').fill('not-an-address');
  await basic.getByRole('button', { name: 'Add Alias' }).click();
  await expect(basic.getByText('Invalid alias format')).toBeVisible();
  await expect(basic.getByText('Please enter a valid email address')).toBeVisible();
  await basic.getByLabel('Alias', { exact: true }).fill('a'.repeat(65));
  await basic.getByRole('button', { name: 'Add Alias' }).click();
  await expect(basic.getByText('Alias must be 64 characters or less')).toBeVisible();

  // A popular alias fills the form; the alias is Pending until its destination confirms.
  await basic.getByRole('button', { name: `Use hello@${domain}` }).click();
  await expect(basic.getByLabel('Alias', { exact: true })).toHaveValue('hello');
  await basic.getByLabel('Forward to').fill(inbox);
  await basic.getByRole('button', { name: 'Add Alias' }).click();
  await expect(page.getByText(`hello@${domain} is Pending: we emailed ${inbox} a link to confirm it.`)).toBeVisible();
  const row = basic.locator(`[data-alias="hello@${domain}"]`);
  await expect(row.getByText('Pending', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Resend confirmation' })).toBeVisible();
  await expect(basic.getByRole('button', { name: `Use hello@${domain}` })).toHaveCount(0);
  // The same alias twice is refused (409) with the spec's toast.
  await basic.getByLabel('Alias', { exact: true }).fill('hello');
  await basic.getByLabel('Forward to').fill(inbox);
  await basic.getByRole('button', { name: 'Add Alias' }).click();
  await expect(page.getByText('Failed to create email alias. Please try again.')).toBeVisible();
  await expect(basic.getByText('This alias already exists on this domain')).toBeVisible();
  await checkScreen(page, 'aliases-basic-pending');

  // ── The destination follows the link mailed to it (caught in the Outbox): Active ──
  await followConfirmationLink(page, await outboxLink(page, `Confirm forwarding to ${inbox}`), 'Confirm forwarding');
  await page.goto('/domain-settings?tab=basic-aliases');
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Resend confirmation' })).toHaveCount(0);

  // Configure: the settings dialog; an auto-reply needs its message.
  await row.getByRole('button', { name: `Configure hello@${domain}` }).click();
  const configure = page.getByRole('dialog', { name: `Configure hello@${domain}` });
  await configure.getByLabel('Auto-reply', { exact: true }).click();
  await configure.getByRole('button', { name: 'Save Settings' }).click();
  await expect(configure.getByText('Auto-reply message is required')).toBeVisible();
  await configure.getByLabel('Auto-reply', { exact: true }).click();
  await expect(configure.getByLabel('Auto-reply message')).toHaveCount(0);
  await configure.getByLabel('Description').fill('Front desk');
  await configure.getByRole('button', { name: 'Save Settings' }).click();
  await expect(configure).toBeHidden();
  await expect(page.getByText(`hello@${domain} is saved.`)).toBeVisible();

  // Delete asks first; Cancel keeps it.
  await row.getByRole('button', { name: `Delete hello@${domain}` }).click();
  const confirmDelete = page.getByRole('alertdialog', { name: `Delete hello@${domain}?` });
  await expect(confirmDelete).toBeVisible();
  await confirmDelete.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();

  // ── Advanced Aliases: a rule and a destination ─────────────────────────────────────
  await page.getByRole('tab', { name: 'Advanced Aliases' }).click();
  const advanced = page.getByRole('tabpanel', { name: 'Advanced Aliases' });
  await expect(advanced.getByRole('heading', { name: new RegExp(`hello@${domain}`) })).toBeVisible();
  await expect(advanced.getByRole('textbox', { name: 'Description' })).toHaveValue('Front desk');
  await advanced.getByRole('tab', { name: 'Forwarding Rules' }).click();
  await advanced.getByRole('button', { name: 'Add Rule' }).click();
  const ruleDialog = page.getByRole('dialog', { name: 'Add forwarding rule' });
  await ruleDialog.getByLabel('Priority').fill('101');
  await ruleDialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(ruleDialog.getByText('Rule name is required')).toBeVisible();
  await expect(ruleDialog.getByText('Priority must be a number from 1 to 100')).toBeVisible();
  await checkScreen(page, 'aliases-rule-dialog');
  await ruleDialog.getByLabel('Rule name').fill('Block offers');
  await ruleDialog.getByLabel('Priority').fill('5');
  await ruleDialog.getByLabel('Subject contains').fill('special offer');
  await ruleDialog.getByLabel('Block the message').check();
  await ruleDialog.getByRole('button', { name: 'Add Rule' }).click();
  await expect(ruleDialog).toBeHidden();
  await expect(advanced.locator('[data-rule="Block offers"]')).toContainText(
    'Subject contains “special offer” → Block',
  );
  // Edit it: the form opens filled in; an empty action is refused; the changed rule is saved.
  await advanced.getByRole('button', { name: 'Edit rule Block offers' }).click();
  const editRule = page.getByRole('dialog', { name: 'Edit rule “Block offers”' });
  await expect(editRule.getByLabel('Rule name')).toHaveValue('Block offers');
  await expect(editRule.getByLabel('Subject contains')).toHaveValue('special offer');
  await expect(editRule.getByLabel('Block the message')).toBeChecked();
  await editRule.getByLabel('Block the message').uncheck();
  await editRule.getByLabel('Forward to', { exact: true }).uncheck();
  await editRule.getByRole('button', { name: 'Save Rule' }).click();
  await expect(editRule.getByText('Choose an action: forward, block or auto-reply')).toBeVisible();
  await editRule.getByLabel('Block the message').check();
  await editRule.getByLabel('Priority').fill('7');
  await checkScreen(page, 'aliases-rule-edit-dialog');
  await editRule.getByRole('button', { name: 'Save Rule' }).click();
  await expect(editRule).toBeHidden();
  await expect(page.getByText('“Block offers” is saved.')).toBeVisible();
  const editedRule = advanced.locator('[data-rule="Block offers"]');
  await expect(editedRule.getByTitle('Priority')).toContainText('7');
  await expect(editedRule).toContainText('Subject contains “special offer” → Block');

  await advanced.getByRole('tab', { name: 'Destinations' }).click();
  await advanced.getByLabel('Destination email').fill('nope');
  await advanced.getByLabel('Weight').fill('11');
  await advanced.getByRole('button', { name: 'Add Destination' }).click();
  await expect(advanced.getByText('Invalid email address')).toBeVisible();
  await expect(advanced.getByText('Weight must be a number from 1 to 10')).toBeVisible();
  await advanced.getByLabel('Destination email').fill(teammate);
  await advanced.getByLabel('Name (optional)').fill('Teammate');
  await advanced.getByLabel('Weight').fill('3');
  await advanced.getByRole('button', { name: 'Add Destination' }).click();
  const destination = advanced.locator(`[data-destination="${teammate}"]`);
  await expect(destination.getByText('Pending', { exact: true })).toBeVisible();
  await expect(destination.getByText('Weight 3')).toBeVisible();
  // Reweight it in place.
  await destination.getByRole('combobox', { name: `Weight of ${teammate}` }).click();
  await page.getByRole('option', { name: 'Weight 5' }).click();
  await expect(page.getByText(`${teammate} now has weight 5.`)).toBeVisible();
  await expect(destination.getByRole('combobox', { name: `Weight of ${teammate}` })).toHaveText('Weight 5');
  const saved = (await (await page.request.get('/api/forwarding-destinations')).json()) as Array<{
    email: string;
    weight: number;
  }>;
  expect(saved.find((d) => d.email === teammate)?.weight).toBe(5);
  await checkScreen(page, 'aliases-advanced-destinations');

  // ── Test: a real message through the pipeline, forwarded; then one the rule blocks ──
  await advanced.getByRole('tab', { name: 'Analytics' }).click();
  await expect(stat(page, 'Forwarded')).toHaveText('0');
  await expect(stat(page, 'Blocked')).toHaveText('0');
  await advanced.getByRole('button', { name: 'Test', exact: true }).click();
  const testDialog = page.getByRole('dialog', { name: `Test hello@${domain}` });
  await testDialog.getByLabel('Subject').fill('Hello from the browser test');
  await testDialog.getByRole('button', { name: 'Send Test' }).click();
  const result = page.getByRole('dialog', { name: 'Test message sent' });
  await expect(result.getByTestId('alias-test-result')).toContainText(inbox);
  await expect(result.getByText('Forwarding to')).toBeVisible();
  await checkScreen(page, 'aliases-test-result');
  await result.getByRole('button', { name: 'Done' }).click();

  await advanced.getByRole('button', { name: 'Test', exact: true }).click();
  await testDialog.getByLabel('Subject').fill('A special offer for you');
  await testDialog.getByRole('button', { name: 'Send Test' }).click();
  await expect(result.getByTestId('alias-test-result')).toContainText('Blocked by rule Block offers');
  await result.getByRole('button', { name: 'Done' }).click();

  // Test messages are recorded apart from real mail (issue 34 #11): the figures stay at zero and say so.
  await expect(page.getByTestId('alias-test-count')).toContainText(
    '2 test messages (Test, Test Forwarding) not counted',
  );
  await expect(stat(page, 'Forwarded')).toHaveText('0');
  await expect(stat(page, 'Blocked')).toHaveText('0');
  await expect(stat(page, 'Success rate')).toHaveText('—');
  const activity = advanced.getByRole('list', { name: `Messages to hello@${domain}` });
  await expect(activity.getByRole('listitem')).toHaveCount(2);
  await expect(activity.getByText('A special offer for you')).toBeVisible();
  await checkScreen(page, 'aliases-advanced-analytics');

  // ── An alias without any destination (the advanced form allows it): Test says 'No Destination Set' ──
  await advanced.getByRole('button', { name: 'New Alias' }).click();
  const newAlias = page.getByRole('dialog', { name: `New alias on ${domain}` });
  await newAlias.getByLabel('Destination (optional)').fill('not-an-address');
  await newAlias.getByRole('button', { name: 'Create Alias' }).click();
  await expect(newAlias.getByText('Alias is required')).toBeVisible();
  await expect(newAlias.getByText('Invalid email address')).toBeVisible();
  await newAlias.getByLabel('Alias', { exact: true }).fill('sales');
  await newAlias.getByLabel('Destination (optional)').fill('');
  await newAlias.getByRole('button', { name: 'Create Alias' }).click();
  await expect(newAlias).toBeHidden();
  await expect(advanced.getByRole('heading', { name: new RegExp(`sales@${domain}`) })).toBeVisible();
  await advanced.getByRole('button', { name: 'Test', exact: true }).click();
  const salesTest = page.getByRole('dialog', { name: `Test sales@${domain}` });
  await salesTest.getByRole('button', { name: 'Send Test' }).click();
  await expect(page.getByText('No Destination Set', { exact: true })).toBeVisible();
  await salesTest.getByRole('button', { name: 'Cancel' }).click();

  // ── Email Forwarding: the webhook address with its secret, the MX record, the guide ──
  await page.getByRole('tab', { name: 'Email Forwarding' }).click();
  await expect(page.getByTestId('inbound-webhook')).toContainText('/api/webhook/email?token=');
  await expect(page.getByRole('heading', { name: 'Forwarding setup guide' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Receive mail directly (MX record)' })).toBeVisible();
  // The MX record to publish, looked up live: the local DNS server holds none for this domain.
  const mx = page.getByRole('region', { name: 'MX record' });
  await expect(mx.locator('[data-field="Value"]')).toHaveText('mx.sendwell.e2e.test');
  await expect(mx.locator('[data-field="Host"]')).toHaveText(domain);
  await expect(mx.locator('[data-slot="badge"]')).toHaveText('Missing');
  await expect(mx.getByText(`No MX record on ${domain} yet.`)).toBeVisible();
  await mx.getByRole('button', { name: 'Check again' }).click();
  await expect(mx.getByRole('button', { name: 'Check again' })).toBeEnabled();
  // Provider bounce webhooks: each provider's URL, a secret saved (never shown again); the bounce mailbox state.
  const postmark = page.locator('[data-provider="postmark"]');
  await expect(postmark).toContainText('/api/webhook/bounces/postmark/');
  await expect(postmark.getByText('Not set up')).toBeVisible();
  await postmark.getByLabel('Webhook secret').fill('short');
  await postmark.getByRole('button', { name: 'Save' }).click();
  await expect(postmark.getByRole('alert')).toContainText('16 to 200 printable characters');
  await postmark.getByLabel('Webhook secret').fill('e2e-postmark-secret-1234');
  await postmark.getByRole('button', { name: 'Save' }).click();
  await expect(postmark.getByText('Set up · ends in 1234')).toBeVisible();
  await expect(postmark.getByLabel('Webhook secret')).toHaveValue('');
  await expect(page.getByTestId('bounce-mailbox')).toContainText('Not configured');
  await checkScreen(page, 'aliases-email-forwarding');

  // ── Delete, confirmed ──────────────────────────────────────────────────────────────
  await page.getByRole('tab', { name: 'Basic Aliases' }).click();
  await row.getByRole('button', { name: `Delete hello@${domain}` }).click();
  await confirmDelete.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(`hello@${domain} no longer receives mail.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(basic.locator(`[data-alias="sales@${domain}"]`)).toBeVisible();
});

type AddedDomain = { id: number; domain: string; records: Array<{ host: string; value: string }> };

test('the campaign editor offers the active aliases of every verified domain, asked by their real ids', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const first = `first-${Date.now()}.test`;
  const second = `second-${Date.now()}.test`;
  const email = await signUpWithDomain(page, first);
  const added = await page.request.post('/api/domains', { data: { domain: second } });
  expect(added.status()).toBe(201);
  // Both verified: their records published on the local DNS server, then checked.
  const domains = (await (await page.request.get('/api/domains')).json()) as AddedDomain[];
  const records = domains.flatMap((d) => d.records);
  writeFileSync(dnsRecordsFile(), JSON.stringify(Object.fromEntries(records.map((r) => [r.host, [r.value]]))));
  for (const domain of domains) {
    const verified = (await (await page.request.post(`/api/domains/${domain.id}/verify`)).json()) as {
      isVerified: boolean;
    };
    expect(verified.isVerified).toBe(true);
  }
  const secondId = domains.find((d) => d.domain === second)?.id ?? 0;
  // On the second domain: one alias forwarding to the account's own (confirmed) address, so Active,
  // and one still Pending; the first domain has none, so it keeps the default senders.
  const create = (alias: string, destination: string) =>
    page.request.post(`/api/domains/${secondId}/aliases`, { data: { alias, destination } });
  expect((await create('orders', email)).status()).toBe(201);
  expect((await create('drafts', uniqueEmail('elsewhere'))).status()).toBe(201);

  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/^\/api\/domains\/\d+\/aliases$/.test(url.pathname)) asked.push(url.pathname);
  });
  await page.goto('/campaigns?new=1');
  const editor = page.getByRole('dialog', { name: 'New Campaign' });
  await expect(editor).toBeVisible();
  const settingsTab = editor.getByRole('tab', { name: 'Settings' });
  if (await settingsTab.isVisible()) await settingsTab.click();
  await editor.getByRole('combobox', { name: 'From email' }).click();
  const options = page.getByRole('option');
  await expect(options.filter({ hasText: `orders@${second}` })).toHaveCount(1);
  await expect(options.filter({ hasText: `drafts@${second}` })).toHaveCount(0);
  await expect(options.filter({ hasText: `marketing@${second}` })).toHaveCount(0);
  await expect(options.filter({ hasText: `marketing@${first}` })).toHaveCount(1);
  expect(new Set(asked)).toEqual(new Set(domains.map((d) => `/api/domains/${d.id}/aliases`)));
});
