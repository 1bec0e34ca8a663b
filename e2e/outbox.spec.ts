import { expect, test } from '@playwright/test';
import { addConfirmedSender, checkScreen, uniqueEmail } from './support.ts';

const RECIPIENTS_CSV = [
  'email,firstName',
  'rose@example.com,Rose',
  'lily@example.com,Lily',
  'ivy@example.com,Ivy',
  '',
].join('\n');
const blocks = [
  { id: 'b1', type: 'text', content: { text: 'Hello {{firstName|friend}}, the garden is open.', tag: 'p' } },
  { id: 'b2', type: 'button', content: { text: 'Visit the garden', url: 'https://garden.example.com/visit' } },
];

test('outbox: mail sent with no SMTP server is listed, searchable and viewable as HTML, text, headers and source', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const accountEmail = uniqueEmail('outbox');
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: accountEmail,
      password: 'outbox-pass',
      confirmPassword: 'outbox-pass',
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

  // ── Empty: the page explains where messages come from ──────────────────────────
  // A new account's Outbox holds its sign-up confirmation link, so the empty page is shown here
  // with the list answered empty.
  await page.route(/\/api\/outbox(\?|$)/, (route) =>
    route.fulfill({ json: { transport: 'catcher', messages: [] }, headers: { 'x-total-count': '0' } }),
  );
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Outbox' }).click();
  await expect(page).toHaveURL(/\/outbox$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Outbox' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No messages yet' })).toBeVisible();
  await expect(page.getByText('While no SMTP server is configured, every email Sendwell sends')).toBeVisible();
  await expect(page.getByText('The built-in mail catcher is on')).toBeVisible();
  await checkScreen(page, 'outbox-empty');
  await page.unroute(/\/api\/outbox(\?|$)/);

  // ── Sign-up's confirmation link: caught here, followed from the message view ─────────
  await page.reload();
  await expect(page.getByText('Confirm your email address to send campaigns')).toBeVisible();
  const confirmRow = page
    .getByRole('table', { name: 'Sent messages' })
    .getByRole('row', { name: /Confirm your email address/ });
  await expect(confirmRow.getByRole('cell').first()).toHaveText(accountEmail);
  await confirmRow.getByRole('link', { name: 'Confirm your email address' }).click();
  const confirmation = page.frameLocator('iframe[title^="Email:"]');
  const link = await confirmation.getByRole('link', { name: 'Confirm my email address' }).getAttribute('href');
  expect(link).toMatch(/\/confirm-email\?token=/);
  await page.goto(link ?? '');
  await expect(page.getByRole('heading', { level: 1, name: 'Confirm your email address' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm my email address' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Email address confirmed' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Dashboard' }).click();
  await expect(page.getByText("Welcome back! Here's your campaign overview.")).toBeVisible();
  await expect(page.getByText('Confirm your email address to send campaigns')).toHaveCount(0);
  // The campaign below comes from a sender address, confirmed the same way.
  await addConfirmedSender(page, 'news@garden.example');
  await page.goto('/outbox');

  // ── Send a campaign to three people and a test email, all caught by the built-in catcher ──
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: { csvData: RECIPIENTS_CSV, createNewList: true, newListName: 'Garden friends' },
  });
  expect(imported.ok()).toBe(true);
  const { listId } = (await imported.json()) as { listId: number };
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Garden opening',
      subject: 'The garden is open, {{firstName|friend}}',
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
  const testSend = await page.request.post(`/api/campaigns/${campaign.id}/test`, {
    data: { emails: [accountEmail] },
  });
  expect(await testSend.json()).toEqual({ sent: 1 });

  // ── The list: newest first, the test marked, the campaign named ───────────────────
  await page.getByRole('button', { name: 'Refresh' }).click();
  const table = page.getByRole('table', { name: 'Sent messages' });
  // The header, the four messages, and the two confirmation links.
  await expect(table.getByRole('row')).toHaveCount(7);
  const firstRow = table.getByRole('row').nth(1);
  await expect(firstRow.getByRole('cell').first()).toHaveText(accountEmail);
  await expect(firstRow.getByText('Test', { exact: true })).toBeVisible();
  await expect(
    table.getByRole('row', { name: /rose@example\.com/ }).getByRole('cell', { name: 'Garden opening' }),
  ).toBeVisible();
  await expect(
    table.getByRole('row', { name: /rose@example\.com/ }).getByRole('link', { name: 'The garden is open, Rose' }),
  ).toBeVisible();
  // First-hour finding 10: a long campaign name was clipped without an ellipsis or a way to read it.
  const campaignName = table.getByRole('row', { name: /rose@example\.com/ }).getByTitle('Garden opening');
  await expect(campaignName).toHaveCSS('text-overflow', 'ellipsis');
  await expect(page.getByText('Showing 1–6 of 6 messages')).toBeVisible();
  await checkScreen(page, 'outbox-list');

  // ── Search by recipient, then clear ───────────────────────────────────────────────
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('lily');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(page).toHaveURL(/\/outbox\?q=lily$/);
  await expect(table.getByRole('link', { name: 'The garden is open, Lily' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('nobody-here');
  await expect(page.getByText('No messages match “nobody-here”')).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(table.getByRole('row')).toHaveCount(7);
  await page.getByRole('searchbox', { name: 'Search messages' }).fill('lily');
  await expect(table.getByRole('row')).toHaveCount(2);

  // ── Open a campaign message: rendered HTML in a sandboxed frame, without tracking ────
  await table.getByRole('link', { name: 'The garden is open, Lily' }).click();
  await expect(page).toHaveURL(/\/outbox\/\d+\?q=lily$/);
  await expect(page.getByRole('heading', { level: 1, name: 'The garden is open, Lily' })).toBeVisible();
  await expect(page.getByText('lily@example.com')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Garden opening' })).toHaveAttribute(
    'href',
    `/campaigns/${campaign.id}/report`,
  );
  const frame = page.locator('iframe[title^="Email:"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  const email = page.frameLocator('iframe[title^="Email:"]');
  await expect(email.getByText('Hello Lily, the garden is open.')).toBeVisible();
  await expect(email.getByRole('link', { name: 'Visit the garden' })).toHaveAttribute(
    'href',
    'https://garden.example.com/visit',
  );
  await expect(email.locator('img[src*="/t/o/"]')).toHaveCount(0);
  await checkScreen(page, 'outbox-message');

  await page.getByRole('tab', { name: 'Text' }).click();
  await expect(page.getByLabel('Plain text part')).toContainText('Hello Lily, the garden is open.');
  await page.getByRole('tab', { name: 'Headers' }).click();
  await expect(page.getByLabel('Message headers')).toContainText('Subject: The garden is open, Lily');
  await expect(page.getByLabel('Message headers')).toContainText('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  await page.getByRole('tab', { name: 'Source' }).click();
  await expect(page.getByLabel('Raw message source')).toContainText('Content-Type: multipart/alternative');
  await checkScreen(page, 'outbox-message-source');

  // Back returns to the search it came from.
  await page.getByRole('link', { name: 'Back to Outbox' }).click();
  await expect(page).toHaveURL(/\/outbox\?q=lily$/);
  await expect(page.getByRole('searchbox', { name: 'Search messages' })).toHaveValue('lily');
  await expect(table.getByRole('row')).toHaveCount(2);

  // An id that is not one of the user's messages (another account's or none) is not found.
  const other = await page.request.get('/api/outbox?pageSize=1');
  const [own] = ((await other.json()) as { messages: { id: number }[] }).messages;
  await page.goto(`/outbox/${(own?.id ?? 0) + 100000}`);
  await expect(page.getByRole('heading', { name: 'Message not found' })).toBeVisible();
});

test('outbox: with SMTP_URL set, the page says mail goes to the SMTP server', async ({ page }) => {
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('outbox-smtp'),
      password: 'outbox-pass',
      confirmPassword: 'outbox-pass',
      firstName: 'Sam',
      lastName: 'Relay',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  // This e2e server runs without SMTP_URL; the answer's transport field is what the page reads,
  // so it is switched here to show the page as it is with a relay configured. With a relay nothing
  // is stored, so the list is empty too (here the catcher holds the sign-up confirmation link).
  await page.route(/\/api\/outbox(\?|$)/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { transport: string };
    await route.fulfill({
      response,
      json: { ...body, transport: 'smtp', messages: [] },
      headers: { ...response.headers(), 'x-total-count': '0' },
    });
  });
  await page.goto('/outbox');
  await expect(page.getByRole('heading', { name: 'Mail goes to your SMTP server' })).toBeVisible();
  await expect(page.getByText('SMTP_URL is set, so every message is delivered through your SMTP server')).toBeVisible();
  await expect(page.getByText('The built-in mail catcher is on')).toHaveCount(0);
  await checkScreen(page, 'outbox-smtp');
});
