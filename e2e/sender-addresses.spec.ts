import { expect, test } from '@playwright/test';
import { checkScreen, confirmAccountEmail, followConfirmationLink, outboxLink, uniqueEmail } from './support.ts';

const blocks = [{ id: 'b1', type: 'text', content: { text: 'Hello {{firstName|friend}}', tag: 'p' } }];

test('senders are proven: an unconfirmed account builds but sends nothing; a sender address is confirmed by its link and offered in the editor', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('senders');
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email,
      password: 'sender-pass',
      confirmPassword: 'sender-pass',
      firstName: 'Press',
      lastName: 'Officer',
      company: 'Partner Co',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  expect((await page.request.patch('/api/auth/user', { data: { postalAddress: '1 Press Row' } })).ok()).toBe(true);
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: { csvData: 'email,firstName\nreader@example.com,Reader\n', createNewList: true, newListName: 'Readers' },
  });
  const { listId } = (await imported.json()) as { listId: number };

  // ── Until the sign-up link is followed: a banner on every page, with a resend link ──
  await page.goto('/');
  const banner = page.getByRole('status').filter({ hasText: 'Confirm your email address to send campaigns' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(email);
  // Sign-up sent one a moment ago: the next may go after a minute, and the toast says so.
  await banner.getByRole('button', { name: 'Resend link' }).click();
  await expect(page.getByText(/^We sent a link less than a minute ago/)).toBeVisible();
  await checkScreen(page, 'confirm-email-banner');

  // The account builds: the editor offers its own address, and the draft saves.
  const draft = await page.request.post('/api/campaigns', {
    data: {
      name: 'Press release',
      subject: 'News',
      fromEmail: email,
      content: { html: '' },
      blocks,
      listIds: [listId],
    },
  });
  expect(draft.status()).toBe(201);
  await page.goto('/campaigns');
  await page.getByRole('button', { name: 'Edit Press release' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit Campaign' });
  await editor.getByRole('tab', { name: 'Settings' }).click();
  await expect(editor.getByRole('combobox', { name: 'From email' })).toHaveText(email);
  await expect(editor.getByText('Confirm your email address to send from it')).toBeVisible();
  await expect(editor.getByText('No confirmed sender yet.')).toBeVisible();
  await expect(editor.getByRole('link', { name: /Add a sender address/ })).toHaveAttribute(
    'href',
    '/domain-settings?tab=senders',
  );
  await editor.getByRole('button', { name: 'Cancel' }).click();

  // …but sends nothing: the send confirmation's checklist says how to fix it and holds Send Now back
  // (the server's own refusal of an unconfirmed account is in the senders' integration tests).
  await page.getByRole('button', { name: 'Send Press release' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Send to 1 recipient?' });
  await expect(
    confirm.getByText('Your own address is not confirmed yet: follow the link we mailed you.'),
  ).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Send Now' })).toBeDisabled();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('row', { name: /Press release/ }).getByText('draft', { exact: true })).toBeVisible();

  // ── Follow the sign-up link (caught in the Outbox): the banner goes ──────────────
  await confirmAccountEmail(page);
  await page.goto('/domain-settings?tab=senders');
  await expect(page.getByText('Confirm your email address to send campaigns')).toHaveCount(0);

  // ── Domain Settings → Sender Addresses: add one, confirm it by the link mailed to it ──
  await expect(page.getByRole('tab', { name: 'Sender Addresses', selected: true })).toBeVisible();
  const panel = page.getByRole('tabpanel', { name: 'Sender Addresses' });
  await expect(panel.getByText('None yet: add a domain on the Domains tab')).toBeVisible();
  await panel.getByLabel('Add a sender address').fill('not-an-email');
  await panel.getByRole('button', { name: 'Add Address' }).click();
  await expect(panel.getByText('Please enter a valid email address')).toBeVisible();
  await panel.getByLabel('Add a sender address').fill('Press@Partner.example');
  await panel.getByRole('button', { name: 'Add Address' }).click();
  await expect(page.getByText('We emailed a link to press@partner.example.')).toBeVisible();
  const row = panel.getByRole('listitem').filter({ hasText: 'press@partner.example' });
  await expect(row.getByText('Awaiting confirmation')).toBeVisible();
  await checkScreen(page, 'sender-addresses');

  await followConfirmationLink(
    page,
    await outboxLink(page, 'Confirm press@partner.example as a sender address'),
    'Confirm sender address',
  );
  await page.goto('/domain-settings?tab=senders');
  await expect(row.getByText('Confirmed')).toBeVisible();

  // ── The editor offers it; the campaign sends from it ────────────────────────────
  await page.goto('/campaigns');
  await page.getByRole('button', { name: 'Edit Press release' }).click();
  await editor.getByRole('tab', { name: 'Settings' }).click();
  await editor.getByRole('combobox', { name: 'From email' }).click();
  await expect(page.getByRole('option')).toHaveText([email, 'press@partner.example']);
  await page.getByRole('option', { name: 'press@partner.example' }).click();
  await expect(editor.getByText('A confirmed address: it goes out without your own domain’s signature.')).toBeVisible();
  await editor.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Your campaign has been saved successfully!')).toBeVisible();
  await editor.getByRole('button', { name: 'Cancel' }).click(); // Save Draft keeps the editor open
  await expect(editor).toHaveCount(0);
  await page.getByRole('button', { name: 'Send Press release' }).click();
  await page
    .getByRole('alertdialog', { name: 'Send to 1 recipient?' })
    .getByRole('button', { name: 'Send Now' })
    .click();
  await expect(page.getByText('Campaign Sending')).toBeVisible();
  await expect
    .poll(async () => ((await (await page.request.get('/api/campaigns')).json()) as { status: string }[])[0]?.status, {
      timeout: 30_000,
    })
    .toBe('sent');
});
