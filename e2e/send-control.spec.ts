import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { dnsRecordsFile } from './global-setup.ts';
import { checkScreen, confirmAccountEmail, expectAccessible, pickOption, screenshot, uniqueEmail } from './support.ts';

const PASSWORD = 'harbour-signal-48';
/**
 * More than a new domain's first-day warming limit (1,000): the first 1,000 go at once and the rest
 * wait for tomorrow, so the campaign stays 'sending' for the whole test however fast the catcher is.
 */
const RECIPIENTS = 1200;
const WARMING_DAY_ONE = 1000;

/** Adds a domain, publishes its records on the local DNS server and verifies it; answers its name. */
async function verifiedDomain(page: Page): Promise<string> {
  const name = `harbour-${Date.now()}.test`;
  const added = await page.request.post('/api/domains', { data: { domain: name } });
  expect(added.status()).toBe(201);
  const domain = (await added.json()) as { id: number; records: Array<{ host: string; value: string }> };
  writeFileSync(dnsRecordsFile(), JSON.stringify(Object.fromEntries(domain.records.map((r) => [r.host, [r.value]]))));
  const verified = await page.request.post(`/api/domains/${domain.id}/verify`);
  expect(((await verified.json()) as { isVerified: boolean }).isVerified).toBe(true);
  return name;
}

/** Signs up and confirms an account through the API (the page's cookie jar keeps the session); answers its address. */
async function signUp(page: Page, prefix: string, timeZone = 'UTC'): Promise<string> {
  const email = uniqueEmail(prefix);
  const signup = await page.request.post('/api/auth/signup', {
    data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Pia', lastName: 'Control', timeZone },
  });
  expect(signup.status()).toBe(201);
  await confirmAccountEmail(page);
  const profile = await page.request.patch('/api/auth/user', { data: { postalAddress: '1 Harbour Road, Portsmouth' } });
  expect(profile.status()).toBe(200);
  return email;
}

/** A campaign from the account's own address to a new list of `count` contacts; answers its id. */
async function campaignTo(page: Page, from: string, name: string, count: number, extra: object = {}): Promise<number> {
  const list = await page.request.post('/api/contact-lists', { data: { name: `${name} list` } });
  const listId = ((await list.json()) as { id: number }).id;
  const rows = Array.from({ length: count }, (_, i) => `${name.toLowerCase().replace(/\W/g, '')}${i}@e2e.test`);
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: { csvData: `email\n${rows.join('\n')}\n`, listId },
  });
  expect(imported.status(), await imported.text()).toBeLessThan(300);
  const created = await page.request.post('/api/campaigns', {
    data: {
      name,
      subject: `${name} news`,
      fromEmail: from,
      content: { html: '<p>News</p>' },
      listIds: [listId],
      ...extra,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

/** The screen checked as checkScreen does (light, with screenshots), and with axe in the dark theme at 390 px too. */
async function checkAllLooks(page: Page, name: string): Promise<void> {
  await checkScreen(page, name);
  const size = page.viewportSize();
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, `${name} (phone, dark)`);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  if (size) await page.setViewportSize(size);
}

/** Opens a row's sending controls menu on the campaigns list and picks an item. */
async function rowControl(page: Page, campaign: string, item: string): Promise<void> {
  await page
    .getByRole('button', { name: `Sending controls for ${campaign}` })
    .first()
    .click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('send control: pause, resume and cancel a sending campaign from the list and the report', async ({ page }) => {
  test.setTimeout(180_000);
  await signUp(page, 'send-control');
  const domain = await verifiedDomain(page);
  const id = await campaignTo(page, `news@${domain}`, 'Harbour weekly', RECIPIENTS);
  expect((await page.request.post(`/api/campaigns/${id}/send`)).status()).toBe(200);
  // The first day's 1,000 go out, and the rest wait for the domain's warming limit: still sending.
  await expect
    .poll(async () => {
      const campaign = (await (await page.request.get(`/api/campaigns/${id}`)).json()) as {
        totalSent: number;
        pausedUntil: string | null;
      };
      return campaign.pausedUntil !== null && campaign.totalSent === WARMING_DAY_ONE;
    })
    .toBe(true);

  // The list: the row's menu pauses and resumes it.
  await page.goto('/campaigns');
  const row = page.getByRole('row', { name: /Harbour weekly/ });
  await expect(row.getByText('sending', { exact: true })).toBeVisible();
  await rowControl(page, 'Harbour weekly', 'Pause sending');
  await expect(page.getByText('Sending paused').first()).toBeVisible();
  await expect(row.getByText('paused', { exact: true })).toBeVisible();
  await rowControl(page, 'Harbour weekly', 'Resume sending');
  await expect(page.getByText('Sending resumed').first()).toBeVisible();
  await expect(row.getByText('sending', { exact: true })).toBeVisible();
  await rowControl(page, 'Harbour weekly', 'Pause sending');
  await expect(row.getByText('paused', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Sending controls for Harbour weekly' }).first().click();
  await expect(page.getByRole('menuitem', { name: 'Resume sending' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Pause sending' })).toHaveCount(0);
  await screenshot(page, 'campaigns-row-controls-menu');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await checkAllLooks(page, 'campaigns-row-controls');

  // The report: the badge, the progress and the buttons move with each control.
  await page.goto(`/campaigns/${id}/report`);
  const header = page.getByRole('main');
  await expect(header.getByRole('status').filter({ hasText: /^Paused$/ })).toBeVisible();
  await expect(page.getByText(`1,000 of ${RECIPIENTS.toLocaleString('en-US')} sent`)).toBeVisible();
  await checkAllLooks(page, 'campaign-report-paused');
  await page.getByRole('button', { name: 'Resume sending' }).click();
  await expect(page.getByRole('button', { name: 'Pause sending' })).toBeVisible();
  // Resumed, the campaign goes on and is held again by the day's warming limit (until tomorrow).
  await expect(
    header.getByRole('status').filter({ hasText: /^(Sending now|Waiting for the warming limit)$/ }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Pause sending' }).click();
  await expect(page.getByRole('button', { name: 'Resume sending' })).toBeVisible();
  await expect(header.getByRole('status').filter({ hasText: /^Paused$/ })).toBeVisible();

  // Cancel asks first; keeping it changes nothing; confirming stops it for good.
  await page.getByRole('button', { name: 'Cancel campaign' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Cancel this campaign?' });
  await expect(dialog).toContainText('A canceled campaign cannot be resumed');
  await checkAllLooks(page, 'campaign-cancel-dialog');
  await dialog.getByRole('button', { name: 'Keep sending' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Resume sending' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel campaign' }).click();
  await dialog.getByRole('button', { name: 'Cancel campaign' }).click();
  await expect(page.getByText('Campaign canceled').first()).toBeVisible();
  await expect(page.getByText('canceled', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /Resume sending|Pause sending|Cancel campaign/ })).toHaveCount(0);
  const after = (await (await page.request.get(`/api/campaigns/${id}`)).json()) as {
    status: string;
    totalSent: number;
  };
  expect(after.status).toBe('canceled');
  expect(after.totalSent).toBe(WARMING_DAY_ONE);
  const rest = await page.request.get(`/api/campaigns/${id}/report`);
  expect(((await rest.json()) as { sent: number }).sent).toBe(WARMING_DAY_ONE);
});

test('send control: a time zone in Settings, a schedule in another zone, its audience now, and its cancel from the list', async ({
  page,
}) => {
  const from = await signUp(page, 'time-zone');
  // Settings → Time zone: the account's default (UTC from this sign-up) changes to New York.
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Time zone' });
  await expect(section.getByRole('combobox', { name: 'Default time zone' })).toHaveText(/^UTC/);
  const newYork = await page.evaluate(() => {
    const offset =
      new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', timeZoneName: 'shortOffset' })
        .formatToParts(new Date())
        .find((part) => part.type === 'timeZoneName')?.value ?? '';
    return `America/New York (${offset})`;
  });
  await pickOption(section, 'Default time zone', newYork);
  await section.getByRole('button', { name: 'Save time zone' }).click();
  await expect(page.getByText('Time zone saved').first()).toBeVisible();
  await checkAllLooks(page, 'settings-time-zone');
  const user = (await (await page.request.get('/api/auth/user')).json()) as { timeZone: string };
  expect(user.timeZone).toBe('America/New_York');

  // A campaign scheduled at 09:00 Tokyo time, a year from now: shown in Tokyo time, with its audience now.
  const year = new Date().getUTCFullYear() + 1;
  await campaignTo(page, from, 'Tokyo launch', 4, {
    status: 'scheduled',
    scheduledAt: `${year}-03-10T09:00`,
    timeZone: 'Asia/Tokyo',
  });
  await page.goto('/campaigns');
  const row = page.getByRole('row', { name: /Tokyo launch/ });
  await expect(row.getByRole('cell', { name: `Scheduled Mar 10, ${year}, 9:00 AM GMT+9`, exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: '4 now', exact: true })).toBeVisible();

  await rowControl(page, 'Tokyo launch', 'Cancel campaign…');
  const dialog = page.getByRole('alertdialog', { name: 'Cancel this campaign?' });
  await expect(dialog).toContainText('will not go out at its scheduled time');
  await dialog.getByRole('button', { name: 'Cancel campaign' }).click();
  await expect(page.getByText('Campaign canceled').first()).toBeVisible();
  await expect(row.getByText('canceled', { exact: true })).toBeVisible();
});
