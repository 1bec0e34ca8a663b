import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type APIResponse, type Locator, type Page } from '@playwright/test';
import { dnsRecordsFile } from './global-setup.ts';
import { confirmAccountEmail, expectAccessible, uniqueEmail } from './support.ts';

// Every distinct screen of the app once in the dark theme at phone width. The flows check their
// screens in the light theme at the window's width (checkScreen in support.ts); the dark theme swaps
// only colour variables on the same DOM and phone width changes only the layout, so one look at each
// screen here finds what those break, instead of a second axe pass on every screen of every flow.
//
// The browser context asks for the dark colour scheme: the app's theme is 'system' until the user
// picks one (src/lib/theme.ts), so every page, reloads and navigations included, draws itself dark
// from its first paint, as on a phone set to dark mode. The window is a phone's from the start too,
// so pages lay out at that width rather than being resized after.
test.use({ colorScheme: 'dark', viewport: { width: 390, height: 844 } });
// The areas are independent (each test its own account), so Playwright's workers share them out.
test.describe.configure({ mode: 'parallel' });

const PASSWORD = 'dusk-lantern-93';

/** Signs up a fresh account through the API (the page's cookie jar keeps the session). */
async function signUp(page: Page, prefix: string): Promise<string> {
  const email = uniqueEmail(`a11y-${prefix}`);
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName: 'Nora',
      lastName: 'Night',
      company: 'Night Owl Co',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  return email;
}

/** Awaits a request that must answer 201 Created; answers its JSON. */
async function created(response: Promise<APIResponse>): Promise<unknown> {
  const answer = await response;
  expect(answer.status(), await answer.text()).toBe(201);
  return answer.json();
}

/** Asserts the page is dark at phone width, then that axe finds nothing serious or critical. */
async function checkDarkPhone(page: Page, screen: string): Promise<void> {
  await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
  expect(page.viewportSize()).toEqual({ width: 390, height: 844 });
  await expectAccessible(page, `${screen} (phone, dark)`);
}

/** Closes a dialog or popover with Escape and waits until it is gone. */
async function dismiss(page: Page, layer: Locator): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(layer).toHaveCount(0);
}

const CONTACTS_CSV = [
  'email,firstName,lastName,company,jobTitle,location',
  'ada@acme.test,Ada,Lovelace,Acme,Engineer,"Austin, USA"',
  'ben@maple.test,Ben,Brown,Maple Co,Sales Lead,"Toronto, Canada"',
  'carla@bauhaus.test,Carla,Christ,Bauhaus GmbH,Developer,"Berlin, Germany"',
  'diego@acme.test,Diego,Diaz,Acme,Chief Executive Officer,"Mexico City, Mexico"',
  '',
].join('\n');

/** Imports the four contacts above into a new list; answers the list's id. */
async function importContacts(page: Page, listName: string): Promise<number> {
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: { csvData: CONTACTS_CSV, createNewList: true, newListName: listName },
  });
  expect(imported.ok(), await imported.text()).toBe(true);
  return ((await imported.json()) as { listId: number }).listId;
}

test('public pages: landing, its menu, login, forgot password, sign-up (both steps), not found', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Get Started Free' })).toBeVisible();
  // The plans come from the server's catalogue.
  await expect(page.locator('#pricing').getByText('$49')).toBeVisible();
  await checkDarkPhone(page, 'landing');

  // Phones get a menu button in place of the header's links.
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('dialog');
  await expect(menu.getByRole('navigation', { name: 'Mobile' })).toBeVisible();
  await checkDarkPhone(page, 'landing menu');
  await dismiss(page, menu);

  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
  await checkDarkPhone(page, 'login');

  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
  await checkDarkPhone(page, 'forgot password');

  await page.goto('/signup');
  await expect(page.getByRole('heading', { level: 1, name: 'Choose Your Plan' })).toBeVisible();
  await expect(page.getByText('Most Popular')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with Pro Plan' })).toBeVisible();
  await checkDarkPhone(page, 'sign-up: plan');
  await page.getByRole('button', { name: 'Continue with Pro Plan' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create Your Account' })).toBeVisible();
  await expect(page.getByLabel('Confirm password')).toBeVisible();
  await checkDarkPhone(page, 'sign-up: account');

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeVisible();
  await checkDarkPhone(page, 'not found');
});

test('contacts: the table, a contact, the import dialog, the lists, the suppression list (empty)', async ({ page }) => {
  // Left unconfirmed on purpose: these screens also show the confirm-your-address banner.
  await signUp(page, 'contacts');
  await importContacts(page, 'Customers');

  await page.goto('/contacts');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Management' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'Confirm your email address to send campaigns' }),
  ).toBeVisible();
  // Phones get cards in place of the table.
  const cards = page.getByRole('list', { name: 'Contacts' });
  await expect(cards.getByRole('listitem')).toHaveCount(4);
  // The list's own summary card, once the lists have loaded (until then the cards offer spec lists).
  await expect(page.getByRole('heading', { level: 2, name: 'Customers', exact: true })).toBeVisible();
  await checkDarkPhone(page, 'contacts');

  await cards.getByRole('button', { name: 'Ada Lovelace' }).click();
  const sheet = page.getByRole('dialog', { name: 'Ada Lovelace' });
  await expect(sheet.getByText('Engagement score')).toBeVisible();
  await expect(sheet.getByText('Nothing has happened with this contact yet.')).toBeVisible();
  await expect(sheet.getByRole('button', { name: 'Remove from Customers' })).toBeVisible();
  await checkDarkPhone(page, 'contact detail');
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toHaveCount(0);

  await page.getByRole('button', { name: 'Import CSV' }).first().click();
  const importDialog = page.getByRole('dialog', { name: 'Import CSV' });
  await expect(importDialog.getByRole('button', { name: 'Import Contacts' })).toBeVisible();
  await checkDarkPhone(page, 'import dialog');
  await dismiss(page, importDialog);

  await page.getByRole('tab', { name: 'Contact Lists' }).click();
  const lists = page.getByRole('tabpanel', { name: 'Contact Lists' });
  await expect(lists.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();
  await checkDarkPhone(page, 'contact lists');

  await page.goto('/contacts/suppressions');
  await expect(page.getByRole('heading', { level: 1, name: 'Suppression list' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No suppressed addresses' })).toBeVisible();
  await checkDarkPhone(page, 'suppressions (empty)');
});

test('segments and sequences: the lists, the segment dialog, the sequence builder', async ({ page }) => {
  await signUp(page, 'segments');
  await confirmAccountEmail(page);
  await importContacts(page, 'Prospects');
  await created(
    page.request.post('/api/contact-segments', {
      data: {
        name: 'Acme people',
        description: 'Everyone at Acme',
        conditions: { operator: 'AND', rules: [{ field: 'company', operator: 'contains', value: 'acme' }] },
      },
    }),
  );
  await created(page.request.post('/api/email-sequences', { data: { name: 'Onboarding', description: 'Welcome' } }));

  await page.goto('/contact-segments');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Segments' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'My Segments (1)' })).toBeVisible();
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Acme people' }) });
  await expect(card.getByText('2 contacts')).toBeVisible();
  await checkDarkPhone(page, 'segments');

  await card.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Segment' });
  await expect(dialog.getByLabel('Name')).toHaveValue('Acme people');
  await expect(dialog.getByText('2 contacts match')).toBeVisible();
  await checkDarkPhone(page, 'segment dialog');
  await dismiss(page, dialog);

  await page.goto('/email-sequences');
  await expect(page.getByRole('heading', { level: 1, name: 'Email Sequences' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'My Sequences (1)' })).toBeVisible();
  await expect(page.locator('[data-sequence="Onboarding"]').getByTestId('sequence-status')).toHaveText('Draft');
  await expect(page.getByLabel('Emails per contact per 24 hours')).toHaveValue('3');
  await checkDarkPhone(page, 'sequences');

  // A template's builder: its flow of seven steps on the canvas.
  await page.getByRole('tab', { name: 'Templates' }).click();
  await page.getByRole('button', { name: 'Use the Feedback Loop template' }).click();
  const builder = page.getByRole('dialog', { name: 'Email Sequence Builder' });
  await expect(builder.getByLabel('Sequence Name')).toHaveValue('Feedback Loop');
  await expect(builder.locator('.react-flow__node')).toHaveCount(7);
  await expect(builder.locator('.react-flow__edge')).toHaveCount(7);
  await checkDarkPhone(page, 'sequence builder');
});

/** A short email: a line of text and a button in the renderer's default colours. */
const BLOCKS = [
  { id: 'intro', type: 'text', content: { text: 'The spring sale starts today.', tag: 'p' }, styles: {} },
  {
    id: 'shop',
    type: 'button',
    content: { text: 'Shop now', url: 'https://example.com/sale' },
    styles: {},
  },
];

test('dashboard, navigation, campaigns (list, editor, report) and the Outbox', async ({ page }) => {
  const email = await signUp(page, 'campaigns');
  await confirmAccountEmail(page);
  expect((await page.request.patch('/api/auth/user', { data: { postalAddress: '1 Dusk Lane' } })).ok()).toBe(true);
  const listId = await importContacts(page, 'Spring customers');
  const campaign = (name: string, extra: Record<string, unknown> = {}) =>
    created(
      page.request.post('/api/campaigns', {
        data: {
          name,
          subject: `${name} for {{firstName|friend}}`,
          fromEmail: email,
          content: { html: '' },
          blocks: BLOCKS,
          listIds: [listId],
          ...extra,
        },
      }),
    );
  await campaign('Spring newsletter');
  // One sent (to the built-in catcher, the Outbox) for its report.
  const { id: sentId } = (await campaign('Flash sale', { status: 'sent' })) as { id: number };
  await expect
    .poll(
      async () => ((await (await page.request.get(`/api/campaigns/${sentId}`)).json()) as { status: string }).status,
      { timeout: 30_000 },
    )
    .toBe('sent');

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const card = (title: string) =>
    page.locator('[data-slot="card"]').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  await expect(card('Total Subscribers').getByText('4', { exact: true })).toBeVisible();
  await expect(card('Recent Campaigns').getByText('Flash sale')).toBeVisible();
  // Contacts, a postal address and a sent campaign, but no domain yet.
  await expect(card('Get started').getByText('3 of 4 done.')).toBeVisible();
  await checkDarkPhone(page, 'dashboard');

  // Phones reach the sections through the menu button's drawer.
  await page.getByRole('button', { name: 'Open navigation menu' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await checkDarkPhone(page, 'navigation drawer');
  await dismiss(page, drawer);

  await page.goto('/campaigns');
  await expect(page.getByRole('heading', { level: 1, name: 'Email Campaigns' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Total Campaigns' })).toBeVisible();
  // Phones get cards in place of the table.
  const campaigns = page.getByRole('list', { name: 'Campaigns' });
  await expect(campaigns.getByText('Spring newsletter', { exact: true })).toBeVisible();
  await expect(campaigns.getByText('sent', { exact: true })).toBeVisible();
  await checkDarkPhone(page, 'campaigns');

  await page.getByRole('button', { name: 'Edit Spring newsletter' }).click();
  // A saved campaign opens on its design; its settings are the other tab.
  const editor = page.getByRole('dialog', { name: 'Edit Campaign' });
  await expect(editor.getByRole('tab', { name: 'Design', selected: true })).toBeVisible();
  await expect(editor.getByRole('list', { name: 'Email blocks' }).getByRole('listitem')).toHaveCount(2);
  await expect(editor.getByText('All changes saved')).toBeVisible();
  await checkDarkPhone(page, 'campaign editor: design');
  await editor.getByRole('tab', { name: 'Settings' }).click();
  await expect(editor.getByLabel('Campaign name')).toHaveValue('Spring newsletter');
  await expect(editor.getByRole('checkbox', { name: /Spring customers/ })).toBeChecked();
  await checkDarkPhone(page, 'campaign editor: settings');
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);

  await page.getByRole('link', { name: 'View Report for Flash sale' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Flash sale' })).toBeVisible();
  await expect(card('Delivered').getByText('4', { exact: true })).toBeVisible();
  await expect(card('Most-clicked links').getByText('No clicks yet.')).toBeVisible();
  await expect(card('Opens and clicks over time').getByText(/No opens or clicks yet/)).toBeVisible();
  await checkDarkPhone(page, 'campaign report');

  // The Outbox: the sign-up's confirmation mail and the campaign's four.
  await page.goto('/outbox');
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  const message = page.getByRole('list', { name: 'Sent messages' }).getByRole('link', { name: /Flash sale for Ada/ });
  await expect(message).toBeVisible();
  await checkDarkPhone(page, 'outbox');
  await message.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Flash sale for Ada' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Flash sale', exact: true })).toBeVisible();
  await checkDarkPhone(page, 'outbox message');
});

/** Adds this worker's TXT records to what it has published on the local DNS server (or takes them away). */
function publish(records: Record<string, string[]>, remove: string[] = []): void {
  let zone: Record<string, string[]> = {};
  try {
    zone = JSON.parse(readFileSync(dnsRecordsFile(), 'utf8')) as Record<string, string[]>;
  } catch {
    // no records file yet
  }
  Object.assign(zone, records);
  for (const host of remove) delete zone[host];
  writeFileSync(dnsRecordsFile(), JSON.stringify(zone));
}

test('domains: the empty list, the wizard, a domain, the notifications, forwarding, sender addresses', async ({
  page,
}) => {
  await signUp(page, 'domains');
  await confirmAccountEmail(page);

  await page.goto('/domain-settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Domain Settings' })).toBeVisible();
  await expect(page.getByText('No domains configured')).toBeVisible();
  await checkDarkPhone(page, 'domains (empty)');

  await page.getByRole('button', { name: 'Add Your First Domain' }).click();
  const wizard = page.getByRole('dialog', { name: 'Add Custom Domain' });
  await expect(wizard.getByText('41.8% higher open rates')).toBeVisible();
  await expect(wizard.getByLabel('Domain')).toBeVisible();
  await checkDarkPhone(page, 'add-domain wizard');
  await wizard.getByRole('button', { name: 'Cancel' }).click();
  await expect(wizard).toHaveCount(0);

  // A domain that verified and then lost a record: Pending, and the bell says so.
  const name = `night-${Date.now()}.test`;
  const domain = (await created(page.request.post('/api/domains', { data: { domain: name } }))) as {
    id: number;
    records: Array<{ kind: string; host: string; value: string }>;
  };
  publish(Object.fromEntries(domain.records.map((record) => [record.host, [record.value]])));
  const verify = async () =>
    ((await (await page.request.post(`/api/domains/${domain.id}/verify`)).json()) as { isVerified: boolean })
      .isVerified;
  expect(await verify()).toBe(true);
  publish({}, [domain.records.find((record) => record.kind === 'dkim')?.host ?? '']);
  expect(await verify()).toBe(false);
  await created(page.request.post('/api/sender-addresses', { data: { email: 'press@partner.example' } }));

  await page.reload();
  const row = page.locator(`li[data-domain="${name}"]`);
  await expect(row.getByText('Pending', { exact: true })).toBeVisible();
  const bell = page.getByRole('button', { name: 'Notifications (1 unread)' });
  await expect(bell).toBeVisible();
  await checkDarkPhone(page, 'domains');

  await bell.click();
  const notifications = page.getByRole('dialog', { name: 'Notifications' });
  await expect(notifications.getByText(`${name} is no longer verified`)).toBeVisible();
  await checkDarkPhone(page, 'notifications');
  await dismiss(page, notifications);

  await page.getByRole('tab', { name: 'Email Forwarding' }).click();
  await expect(page.getByTestId('inbound-webhook')).toContainText('/api/webhook/email?token=');
  await expect(page.getByRole('heading', { name: 'Forwarding setup guide' })).toBeVisible();
  // The MX record is looked up live: its badge settles on Missing (the local DNS server has none).
  await expect(page.getByRole('region', { name: 'MX record' }).locator('[data-slot="badge"]')).toHaveText('Missing');
  await checkDarkPhone(page, 'email forwarding');

  await page.getByRole('tab', { name: 'Sender Addresses' }).click();
  const senders = page.getByRole('tabpanel', { name: 'Sender Addresses' });
  await expect(
    senders.getByRole('listitem').filter({ hasText: 'press@partner.example' }).getByText('Awaiting confirmation'),
  ).toBeVisible();
  await checkDarkPhone(page, 'sender addresses');
});

test('leads and the account: recent leads, a lead, the sources, the add-source dialog, billing, profile', async ({
  page,
}) => {
  await signUp(page, 'leads');
  await confirmAccountEmail(page);
  const source = (await created(
    page.request.post('/api/lead-sources', { data: { type: 'sample', name: 'Demo directory' } }),
  )) as { id: number };
  const loaded = await page.request.post(`/api/lead-sources/${source.id}/sample-leads`, {
    data: { profession: 'Plumber', location: 'Austin, TX' },
  });
  expect(loaded.ok(), await loaded.text()).toBe(true);

  await page.goto('/lead-generation');
  await expect(page.getByRole('heading', { level: 1, name: 'Lead Generation' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Recent Leads (10)' })).toBeVisible();
  const recent = page.getByRole('list', { name: 'Recent leads' });
  await expect(recent.getByRole('listitem')).toHaveCount(10);
  await checkDarkPhone(page, 'leads');

  const open = recent.getByRole('button', { name: /^Open / }).first();
  const leadName = ((await open.getAttribute('aria-label')) ?? '').replace(/^Open /, '');
  await open.click();
  const sheet = page.getByRole('dialog', { name: leadName });
  await expect(sheet.getByTestId('convert-blocked')).toContainText('Sample data is for trying the screens');
  await checkDarkPhone(page, 'lead detail');
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toHaveCount(0);

  await page.getByRole('tab', { name: 'Lead Sources (1)' }).click();
  await expect(
    page.getByRole('tabpanel', { name: /Lead Sources/ }).getByText('Demo directory', { exact: true }),
  ).toBeVisible();
  await checkDarkPhone(page, 'lead sources');

  await page.getByRole('button', { name: 'Add Source' }).click();
  const addSource = page.getByRole('dialog', { name: 'Add Lead Source' });
  await expect(addSource.getByText('Configure a new lead generation source')).toBeVisible();
  await expect(addSource.getByLabel('Name')).toBeVisible();
  await checkDarkPhone(page, 'add-source dialog');
  await dismiss(page, addSource);

  await page.goto('/billing');
  await expect(page.getByRole('heading', { level: 1, name: 'Billing' })).toBeVisible();
  await expect(page.getByText('14-day trial')).toBeVisible();
  await expect(page.getByText('0 of 10,000 subscribers')).toBeVisible();
  await expect(page.getByText('0 of 5 domains')).toBeVisible();
  await checkDarkPhone(page, 'billing');

  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('Nora');
  await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
  await checkDarkPhone(page, 'profile');
});
