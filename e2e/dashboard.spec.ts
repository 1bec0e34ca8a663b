import { expect, test, type Page } from '@playwright/test';
import {
  addConfirmedSender,
  checkScreen,
  confirmAccountEmail,
  expectAccessible,
  screenshot,
  uniqueEmail,
} from './support.ts';

const CUSTOMERS_CSV = [
  'email,firstName,lastName',
  'rose@example.com,Rose,Gardner',
  'lily@example.com,Lily,Bloom',
  '',
].join('\n');
const blocks = [
  {
    id: 'intro',
    type: 'text',
    content: { text: 'Hi {{firstName|there}}, the spring sale starts today.', tag: 'p' },
    styles: {},
  },
  { id: 'shop', type: 'button', content: { text: 'Shop now', url: 'https://example.com/spring-sale' }, styles: {} },
];

/** A stat card by its title. */
const statCard = (page: Page, title: string) =>
  page.locator('[data-slot="card"]').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

test('dashboard: trend captions from stored data, and recording a purchase from the Revenue card', async ({ page }) => {
  test.setTimeout(180_000);
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('dashboard'),
      password: 'garden-pass',
      confirmPassword: 'garden-pass',
      firstName: 'Flora',
      lastName: 'Green',
      company: 'Garden Co',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  expect(
    (await page.request.patch('/api/auth/user', { data: { postalAddress: '1 Garden Lane, Springfield' } })).ok(),
  ).toBe(true);
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: { csvData: CUSTOMERS_CSV, createNewList: true, newListName: 'Spring customers' },
  });
  expect(imported.ok()).toBe(true);
  const { listId } = (await imported.json()) as { listId: number };

  // ── A new account: real figures, and captions that say there is nothing to compare with ──
  await page.goto('/');
  await expect(page.getByText("Welcome back! Here's your campaign overview.")).toBeVisible();
  await expect(statCard(page, 'Total Subscribers').getByText('2', { exact: true })).toBeVisible();
  await expect(statCard(page, 'Total Subscribers').getByTestId('stat-caption')).toHaveText(
    'No data from the previous 30 days',
  );
  await expect(statCard(page, 'Open Rate').getByTestId('stat-caption')).toHaveText('No campaigns sent yet');
  // The same state in the same words on both rate cards.
  await expect(statCard(page, 'Click Rate').getByTestId('stat-caption')).toHaveText('No campaigns sent yet');
  await expect(statCard(page, 'Revenue').getByText('$0', { exact: true })).toBeVisible();
  await expect(statCard(page, 'Revenue').getByTestId('stat-caption')).toHaveText('No data from the previous 30 days');
  await expect(page.getByText('vs last month')).toHaveCount(0);

  // ── After a send: the open rate against the industry average, from the real (0%) figure ──
  // Sending needs a confirmed account and a proven sender: both confirmed by the links mailed (to the Outbox).
  await confirmAccountEmail(page);
  await addConfirmedSender(page, 'news@garden.example');
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Spring sale',
      subject: 'Spring is here, {{firstName|friend}}',
      fromEmail: 'news@garden.example',
      fromName: 'Garden Co',
      content: { html: '' },
      blocks,
      listIds: [listId],
    },
  });
  expect(created.status()).toBe(201);
  const campaign = (await created.json()) as { id: number };
  expect((await page.request.post(`/api/campaigns/${campaign.id}/send`)).ok()).toBe(true);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/campaigns/${campaign.id}`)).json()) as { status: string }).status,
      { timeout: 30_000 },
    )
    .toBe('sent');
  await page.goto('/');
  await expect(statCard(page, 'Open Rate').getByTestId('stat-caption')).toHaveText('25.0 pts below industry avg (25%)');
  await expect(statCard(page, 'Click Rate').getByTestId('stat-caption')).toHaveText(
    'No data from the previous 30 days',
  );
  await checkScreen(page, 'dashboard-trends');

  // ── Record a purchase: validation in the form, then the server's answer, then success ──
  await statCard(page, 'Revenue').getByRole('button', { name: 'Record a purchase' }).click();
  const dialog = page.getByRole('dialog', { name: 'Record a purchase' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('No purchases recorded yet.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Record Purchase' }).click();
  await expect(dialog.getByText('Email is required')).toBeVisible();
  await expect(dialog.getByText('Amount is required')).toBeVisible();
  await expect(dialog.getByLabel('Contact email')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'record-a-purchase dialog with errors');

  await dialog.getByLabel('Contact email').fill('stranger@example.com');
  await dialog.getByLabel('Amount (USD)').fill('10.999');
  await dialog.getByRole('button', { name: 'Record Purchase' }).click();
  await expect(dialog.getByText('Amount can have at most 2 decimals')).toBeVisible();
  await dialog.getByLabel('Amount (USD)').fill('19.99');
  await dialog.getByRole('button', { name: 'Record Purchase' }).click();
  await expect(dialog.getByText('No contact with this email. Add them to your contacts first.')).toBeVisible();

  await dialog.getByLabel('Contact email').fill('Rose@Example.com');
  await dialog.getByRole('combobox', { name: 'Campaign (optional)' }).click();
  await page.getByRole('option', { name: 'Spring sale' }).click();
  await expect(dialog.getByRole('combobox', { name: 'Campaign (optional)' })).toHaveText('Spring sale');
  await dialog.getByRole('button', { name: 'Record Purchase' }).click();
  await expect(page.getByText('Purchase recorded')).toBeVisible();
  await expect(page.getByText('$19.99 from rose@example.com.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // The figures refresh without a reload.
  await expect(statCard(page, 'Revenue').getByText('$19.99', { exact: true })).toBeVisible();
  await expect(statCard(page, 'Revenue').getByTestId('stat-caption')).toHaveText('No data from the previous 30 days');

  // ── Reopened, the dialog lists what was recorded ──
  await statCard(page, 'Revenue').getByRole('button', { name: 'Record a purchase' }).click();
  await expect(dialog.getByRole('region', { name: 'Recent purchases' }).getByText('rose@example.com')).toBeVisible();
  await expect(dialog.getByText('· Spring sale')).toBeVisible();
  await expectAccessible(page, 'record-a-purchase dialog (light)');
  await screenshot(page, 'record-purchase-dialog-light');
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await expectAccessible(page, 'record-a-purchase dialog (dark)');
  await screenshot(page, 'record-purchase-dialog-dark');
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
});
