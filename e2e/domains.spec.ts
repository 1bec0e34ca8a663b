import { writeFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { dnsRecordsFile } from './global-setup.ts';
import { checkScreen, uniqueEmail } from './support.ts';

type Published = Record<string, string[]>;

/** Publishes TXT records on the local DNS server the app resolves through. */
function publish(records: Published): void {
  writeFileSync(dnsRecordsFile(), JSON.stringify(records));
}

/** The host and value a record card shows, exactly as the user would copy them. */
async function shownRecord(scope: Locator, title: string): Promise<{ host: string; value: string }> {
  const card = scope.getByRole('region', { name: title });
  const host = (await card.locator('[data-field="host"]').textContent())?.trim() ?? '';
  const value = (await card.locator('[data-field="value"]').textContent())?.trim() ?? '';
  return { host, value };
}

async function expectStatus(
  scope: Locator,
  title: string,
  status: 'Verified' | 'Missing' | 'Wrong value',
): Promise<void> {
  await expect(scope.getByRole('region', { name: title }).locator('[data-slot="badge"]')).toHaveText(status);
}

async function signUp(page: Page): Promise<void> {
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('domains'),
      password: 'domain-pass',
      confirmPassword: 'domain-pass',
      firstName: 'Grace',
      lastName: 'Hopper',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
}

test('domain wizard → DNS records → check now → verified; list, DNS Records and Reputation tabs', async ({ page }) => {
  // Six screens checked with axe, on a shared machine.
  test.setTimeout(150_000);
  const name = `shop-${Date.now()}.test`;
  publish({});
  await signUp(page);

  await page.goto('/domain-settings');
  await expect(page.getByRole('heading', { name: 'Domain Settings', level: 1 })).toBeVisible();
  for (const tab of ['Domains', 'Basic Aliases', 'Advanced Aliases', 'Email Forwarding', 'DNS Records', 'Reputation']) {
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  }
  await expect(page.getByText('No domains configured')).toBeVisible();
  await checkScreen(page, 'domain-settings-empty');

  // Wizard, input step: the bare-domain rule, then a real domain.
  await page.getByRole('button', { name: 'Add Your First Domain' }).click();
  const wizard = page.getByRole('dialog', { name: 'Add Custom Domain' });
  await expect(wizard.getByText('41.8% higher open rates')).toBeVisible();
  await wizard.getByLabel('Domain').fill(`www.${name}`);
  await wizard.getByRole('button', { name: 'Add Domain' }).click();
  await expect(wizard.getByText('Enter the bare domain without www. or http://')).toBeVisible();
  await checkScreen(page, 'domain-wizard-input');
  // First-hour finding 10: a pasted address is cleaned up to the bare domain rather than refused.
  await wizard.getByLabel('Domain').fill('');
  await wizard.getByLabel('Domain').evaluate((input, text) => {
    const data = new DataTransfer();
    data.setData('text', text);
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, `https://www.${name}/pricing`);
  await expect(wizard.getByLabel('Domain')).toHaveValue(name);
  await wizard.getByRole('button', { name: 'Add Domain' }).click();

  // DNS step: the three records as they really are, all missing so far.
  await expect(wizard.getByText('DNS propagation takes 24-48 hours')).toBeVisible();
  for (const title of ['SPF Record', 'DKIM Record', 'DMARC Record']) await expectStatus(wizard, title, 'Missing');
  await expect(wizard.getByRole('button', { name: 'Back' })).toBeVisible();
  await expect(wizard.getByRole('button', { name: "I'll Configure This Later" })).toBeVisible();
  await expect(wizard.getByRole('button', { name: 'Copy DKIM value' })).toBeVisible();
  await checkScreen(page, 'domain-wizard-dns');

  const spf = await shownRecord(wizard, 'SPF Record');
  const dkim = await shownRecord(wizard, 'DKIM Record');
  const dmarc = await shownRecord(wizard, 'DMARC Record');
  expect(spf).toEqual({ host: name, value: 'v=spf1 include:_spf.sendwell.e2e.test ~all' });
  expect(dkim.host).toMatch(new RegExp(`^sw\\d{6}\\._domainkey\\.${name.replace(/\./g, '\\.')}$`));
  expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
  expect(dmarc).toEqual({ host: `_dmarc.${name}`, value: `v=DMARC1; p=none; rua=mailto:dmarc@${name}` });

  // Back keeps the domain; submitting it again returns to its records.
  await wizard.getByRole('button', { name: 'Back' }).click();
  await expect(wizard.getByLabel('Domain')).toHaveValue(name);
  await wizard.getByRole('button', { name: 'Add Domain' }).click();
  await expect(wizard.getByRole('region', { name: 'SPF Record' })).toBeVisible();

  // Two of three published: still on the DNS step, DKIM shown as missing.
  publish({ [spf.host]: [spf.value], [dmarc.host]: [dmarc.value] });
  await wizard.getByRole('button', { name: 'Check now' }).click();
  await expectStatus(wizard, 'SPF Record', 'Verified');
  await expectStatus(wizard, 'DMARC Record', 'Verified');
  await expectStatus(wizard, 'DKIM Record', 'Missing');
  await expect(wizard.getByRole('region', { name: 'DKIM Record' })).toContainText('No record found yet');

  // All three: the verified view, which closes itself after 2 s.
  publish({ [spf.host]: [spf.value], [dkim.host]: [dkim.value], [dmarc.host]: [dmarc.value] });
  await wizard.getByRole('button', { name: 'Check now' }).click();
  await expect(wizard.getByText('Domain verified!')).toBeVisible();
  const shownAt = Date.now();
  await expect(wizard).toBeHidden({ timeout: 5000 });
  expect(Date.now() - shownAt).toBeGreaterThan(1000);

  // The list, the primary card and the DNS Records tab show the real state.
  const row = page.locator(`li[data-domain="${name}"]`);
  await expect(row.getByText('Verified', { exact: true })).toBeVisible();
  await expect(row.getByText(/^Added /)).toBeVisible();
  await expect(page.getByText('Primary sending domain')).toBeVisible();
  await checkScreen(page, 'domain-settings-list');

  await row.getByRole('button', { name: `DNS records of ${name}` }).click();
  await expect(page.getByRole('tab', { name: 'DNS Records', selected: true })).toBeVisible();
  const dnsTab = page.getByRole('tabpanel', { name: 'DNS Records' });
  for (const title of ['SPF Record', 'DKIM Record', 'DMARC Record']) await expectStatus(dnsTab, title, 'Verified');
  await expect(dnsTab.getByText('All records are configured')).toBeVisible();
  await checkScreen(page, 'domain-settings-dns');

  await page.getByRole('tab', { name: 'Reputation' }).click();
  const reputation = page.getByRole('tabpanel', { name: 'Reputation' });
  await expect(reputation.getByText('No sending yet').first()).toBeVisible();
  await expect(reputation.getByText('Week 1 of 4')).toBeVisible();
  await expect(reputation.getByText('1,000 emails').first()).toBeVisible();
  await expect(reputation.getByRole('heading', { name: 'Spam Rate · Last 7 Days' })).toBeVisible();
  await expect(reputation.getByTestId('complaint-standing')).toHaveText(
    'No mail sent from this domain in the last 7 days',
  );
  await checkScreen(page, 'domain-settings-reputation');
});

test('forwarding and alias tabs, configure later, duplicate, primary, delete, and the bell when a record disappears', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const name = `brand-${Date.now()}.test`;
  await signUp(page);
  // A verified domain, set up through the API with its records published.
  const added = await page.request.post('/api/domains', { data: { domain: name } });
  expect(added.status()).toBe(201);
  const domain = (await added.json()) as { id: number; records: Array<{ kind: string; host: string; value: string }> };
  const published = Object.fromEntries(domain.records.map((r) => [r.host, [r.value]]));
  publish(published);
  expect(
    ((await (await page.request.post(`/api/domains/${domain.id}/verify`)).json()) as { isVerified: boolean })
      .isVerified,
  ).toBe(true);
  const dkimHost = domain.records.find((r) => r.kind === 'dkim')?.host ?? '';

  await page.goto('/domain-settings');
  const wizard = page.getByRole('dialog', { name: 'Add Custom Domain' });
  const row = page.locator(`li[data-domain="${name}"]`);
  await expect(row.getByText('Verified', { exact: true })).toBeVisible();

  await page.getByRole('tab', { name: 'Email Forwarding' }).click();
  // The account's own address: this origin + /api/webhook/email with the account's token.
  const webhookAt = (token: string) => `${new URL('/api/webhook/email', page.url()).toString()}?token=${token}`;
  const { token } = (await (await page.request.get('/api/webhook/email-address')).json()) as { token: string };
  await expect(page.getByTestId('inbound-webhook')).toHaveText(webhookAt(token));
  await checkScreen(page, 'domain-settings-forwarding');
  // Regenerating retires the old token: the webhook refuses it, and the tab shows the new address.
  await page.getByRole('button', { name: 'Regenerate address' }).click();
  const regenerate = page.getByRole('alertdialog', { name: 'Regenerate the webhook address?' });
  await regenerate.getByRole('button', { name: 'Regenerate' }).click();
  await expect(regenerate).toBeHidden();
  const { token: renewed } = (await (await page.request.get('/api/webhook/email-address')).json()) as {
    token: string;
  };
  expect(renewed).not.toBe(token);
  await expect(page.getByTestId('inbound-webhook')).toHaveText(webhookAt(renewed));
  const report = { headers: { 'content-type': 'message/rfc822' }, data: 'Subject: hi\r\n\r\nhello' };
  expect((await page.request.post(`/api/webhook/email?token=${token}`, report)).status()).toBe(401);
  expect((await page.request.post(`/api/webhook/email?token=${renewed}`, report)).status()).toBe(200);
  await page.getByRole('tab', { name: 'Basic Aliases' }).click();
  await expect(page.getByText(`hello@${name}`, { exact: true })).toBeVisible();
  await expect(page.getByText('No aliases yet')).toBeVisible();

  // A second domain through the wizard, left for later: Pending in the list.
  await page.getByRole('tab', { name: 'Domains' }).click();
  await page.getByRole('button', { name: 'Add Domain' }).first().click();
  await wizard.getByLabel('Domain').fill(`news.${name}`);
  await wizard.getByRole('button', { name: 'Add Domain' }).click();
  await wizard.getByRole('button', { name: "I'll Configure This Later" }).click();
  await expect(wizard).toBeHidden();
  const second = page.locator(`li[data-domain="news.${name}"]`);
  await expect(second.getByText('Pending', { exact: true })).toBeVisible();

  // The same name again: the server's message.
  await page.getByRole('button', { name: 'Add Domain' }).first().click();
  await wizard.getByLabel('Domain').fill(name);
  await wizard.getByRole('button', { name: 'Add Domain' }).click();
  await expect(page.getByText('You have already added this domain')).toBeVisible();
  await wizard.getByRole('button', { name: 'Cancel' }).click();
  await expect(wizard).toBeHidden();

  // Configure: make the second domain primary, then delete it behind a confirmation.
  await second.getByRole('button', { name: `Configure news.${name}` }).click();
  const configure = page.getByRole('dialog', { name: `Configure news.${name}` });
  await expect(configure.getByText('0 of 3 records verified')).toBeVisible();
  await checkScreen(page, 'domain-configure-dialog');
  await configure.getByRole('button', { name: 'Make Primary' }).click();
  await expect(configure.getByText('This is your primary sending domain.')).toBeVisible();
  // Its toast sits over the dialog's bottom corner until it fades; a click then lands on the toast.
  await expect(page.getByText('Primary domain changed')).toBeHidden({ timeout: 15_000 });
  await configure.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete news.${name}?` });
  await confirm.getByRole('button', { name: 'Delete Domain' }).click();
  await expect(configure).toBeHidden();
  await expect(second).toHaveCount(0);
  await expect(page.getByRole('heading', { name, level: 2, exact: true })).toBeVisible();

  // A record disappears: the check moves the domain back to pending and the bell says so.
  publish(Object.fromEntries(Object.entries(published).filter(([host]) => host !== dkimHost)));
  await row.getByRole('button', { name: `Configure ${name}` }).click();
  const configureFirst = page.getByRole('dialog', { name: `Configure ${name}` });
  await configureFirst.getByRole('button', { name: 'Check now' }).click();
  await expectStatus(configureFirst, 'DKIM Record', 'Missing');
  await page.keyboard.press('Escape');
  await expect(row.getByText('Pending', { exact: true })).toBeVisible();
  await page.reload();
  const bell = page.getByRole('button', { name: 'Notifications (1 unread)' });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(page.getByText(`${name} is no longer verified`)).toBeVisible();
  await checkScreen(page, 'notifications-open');
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
});

test('the Domains tab shows a 2-row skeleton while loading', async ({ page }) => {
  await signUp(page);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/domains', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/domain-settings');
  await expect(page.getByTestId('domain-skeleton-row')).toHaveCount(2);
  release();
  await expect(page.getByText('No domains configured')).toBeVisible();
});
