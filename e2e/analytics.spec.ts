import { expect, test, type Page } from '@playwright/test';
import { addConfirmedSender, checkScreen, confirmAccountEmail, expectAccessible, uniqueEmail } from './support.ts';

// /analytics (issue 31 part 3) and the contact's activity timeline (part 2), from mail really sent
// through the app and opened and clicked through the real tracking routes.

const READER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const LINK = 'https://garden.example/spring-sale';
const CSV = [
  'email,firstName,lastName',
  'rose@example.com,Rose,Gardner',
  'lily@example.com,Lily,Bloom',
  'ivy@example.com,Ivy,Stone',
  '',
].join('\n');

/** axe in the dark theme and at phone width too (checkScreen covers the light theme at the window's width). */
async function checkDarkAndPhone(page: Page, name: string): Promise<void> {
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await expectAccessible(page, `${name} (dark)`);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, `${name} (phone, dark)`);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await expectAccessible(page, `${name} (phone)`);
  if (size) await page.setViewportSize(size);
}

/**
 * The tracking URLs (pixel, first link) of the message the Outbox caught for `to`, read from the raw
 * message as sent (the Outbox's viewing copy leaves tracking out); its parts are quoted-printable.
 */
async function trackingUrls(page: Page, to: string): Promise<{ pixel: string; click: string }> {
  const list = (await (await page.request.get(`/api/outbox?search=${encodeURIComponent(to)}`)).json()) as {
    messages: { id: number; to: string }[];
  };
  const message = list.messages.find((m) => m.to.includes(to));
  const detail = (await (await page.request.get(`/api/outbox/${message?.id}`)).json()) as { raw: string };
  const raw = detail.raw
    .replace(/=\r?\n/g, '')
    .replaceAll('=3D', '=')
    .replaceAll('&amp;', '&');
  const path = (url: string | undefined) => new URL(url ?? 'http://x/').pathname;
  return {
    pixel: path(/src="([^"]+\/t\/o\/[^"]+)"/.exec(raw)?.[1]),
    click: path(/href="([^"]+\/t\/c\/[^"]+)"/.exec(raw)?.[1]),
  };
}

const card = (page: Page, title: string) =>
  page
    .getByRole('list', { name: 'Totals for the range' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });

test('analytics: empty until mail goes out, then the figures of what was sent, opened and clicked; the contact’s activity', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('analytics'),
      password: 'garden-pass',
      confirmPassword: 'garden-pass',
      firstName: 'Flora',
      lastName: 'Green',
      company: 'Garden Co',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);

  // ── Nothing sent yet: an empty state, no figures ──
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1, name: 'Analytics' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Nothing sent yet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Campaigns' })).toBeVisible();
  await checkScreen(page, 'analytics-empty');
  await checkDarkAndPhone(page, 'analytics-empty');

  // ── A campaign to three contacts: Lily's pixel loads in a browser, Rose's through Apple's proxy, Ivy clicks ──
  expect(
    (await page.request.patch('/api/auth/user', { data: { postalAddress: '1 Garden Lane, Springfield' } })).ok(),
  ).toBe(true);
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: { csvData: CSV, createNewList: true, newListName: 'Spring customers' },
  });
  const { listId } = (await imported.json()) as { listId: number };
  await confirmAccountEmail(page);
  await addConfirmedSender(page, 'news@garden.example');
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Spring sale',
      subject: 'Spring is here',
      fromEmail: 'news@garden.example',
      fromName: 'Garden Co',
      content: { html: '' },
      blocks: [
        { id: 'intro', type: 'text', content: { text: 'The spring sale starts today.', tag: 'p' }, styles: {} },
        { id: 'shop', type: 'button', content: { text: 'Shop now', url: LINK }, styles: {} },
      ],
      listIds: [listId],
    },
  });
  const campaign = (await created.json()) as { id: number };
  expect((await page.request.post(`/api/campaigns/${campaign.id}/send`)).ok()).toBe(true);
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/campaigns/${campaign.id}`)).json()) as { status: string }).status,
    )
    .toBe('sent');
  const lily = await trackingUrls(page, 'lily@example.com');
  const rose = await trackingUrls(page, 'rose@example.com');
  const ivy = await trackingUrls(page, 'ivy@example.com');
  expect((await page.request.get(lily.pixel, { headers: { 'user-agent': READER } })).ok()).toBe(true);
  expect((await page.request.get(rose.pixel, { headers: { 'user-agent': 'Mozilla/5.0' } })).ok()).toBe(true);
  const clicked = await page.request.get(ivy.click, { headers: { 'user-agent': READER }, maxRedirects: 0 });
  expect(clicked.headers().location, `${ivy.click} ${clicked.status()} ${await clicked.text()}`).toBe(LINK);

  // ── The figures: 3 sent; Lily and Ivy opened (a click implies an open), Rose's proxy apart ──
  await page.goto('/analytics');
  await expect(page.getByRole('radio', { name: '30 days' })).toHaveAttribute('aria-checked', 'true');
  await expect(card(page, 'Sent').getByText('3', { exact: true })).toBeVisible();
  await expect(card(page, 'Sent').getByText('3 delivered (sent minus hard bounces)')).toBeVisible();
  await expect(card(page, 'Human opens').getByText('66.7%', { exact: true })).toBeVisible();
  await expect(card(page, 'Human opens').getByText(/33\.3% machine opens \(1\) not counted/)).toBeVisible();
  await expect(card(page, 'Clicks').getByText('33.3%', { exact: true })).toBeVisible();
  await expect(card(page, 'List growth').getByText('+3', { exact: true })).toBeVisible();
  const domains = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Reputation' }) });
  await expect(domains.getByRole('row', { name: /garden\.example/ })).toContainText('Good');
  await expect(page.getByRole('rowheader', { name: LINK })).toBeVisible();
  // The chart is drawn, and its table says the same.
  const mail = page
    .locator('[data-slot="card"]')
    .filter({ has: page.getByRole('heading', { name: 'Mail over time' }) });
  await expect(mail.locator('.recharts-line').first()).toBeVisible();
  await mail.getByRole('button', { name: 'Show as table' }).click();
  await expect(mail.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true');
  const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
  await expect(mail.getByRole('row', { name: today })).toHaveText(new RegExp(`${today}\\s*3\\s*3\\s*2\\s*1\\s*1`));
  await checkScreen(page, 'analytics-with-data');
  await checkDarkAndPhone(page, 'analytics-with-data');

  // A custom range is checked before it is asked for.
  await page.getByRole('radio', { name: 'Custom' }).click();
  await page.getByLabel('From', { exact: true }).fill('2026-03-10');
  await page.getByLabel('To', { exact: true }).fill('2026-03-01');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('alert')).toHaveText('The start date must be on or before the end date');
  await expect(page.getByLabel('From', { exact: true })).toHaveAttribute('aria-invalid', 'true');

  // ── Ivy's activity on her contact sheet: sent, opened (implied by the click), clicked ──
  await page.goto('/contacts');
  await page.getByRole('button', { name: 'Ivy Stone' }).click();
  const sheet = page.getByRole('dialog', { name: 'Ivy Stone' });
  const activity = sheet.getByRole('region', { name: 'Timeline' });
  await expect(activity.getByText('Clicked a link')).toBeVisible();
  await expect(activity.getByText(LINK)).toBeVisible();
  await expect(activity.getByText('Campaign email sent')).toBeVisible();
  await expect(activity.getByText('Spring sale').first()).toBeVisible();
  await checkScreen(page, 'contact-activity');
  await checkDarkAndPhone(page, 'contact-activity');
  await sheet.getByRole('button', { name: 'Close' }).click();

  // Rose's open was Apple's proxy: it says so.
  await page.getByRole('button', { name: 'Rose Gardner' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Rose Gardner' }).getByText('Opened by a machine (privacy proxy or pre-fetch)'),
  ).toBeVisible();
});
