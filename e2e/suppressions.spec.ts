import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { addConfirmedSender, checkScreen, confirmAccountEmail, expectAccessible, uniqueEmail } from './support.ts';

/** A hard-bounce report (RFC 3464) about the message with this Message-ID, as the receiving server sends it back. */
function hardBounceDsn(originalMessageId: string, recipient: string): string {
  return [
    'From: MAILER-DAEMON@mx.example.com',
    'To: bounces@garden.example',
    'Subject: Undelivered Mail Returned to Sender',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'Delivery failed.',
    '',
    '--b1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.com',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    'Action: failed',
    'Status: 5.1.1',
    'Diagnostic-Code: smtp; 550 5.1.1 User unknown',
    '',
    '--b1',
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: ${originalMessageId}`,
    'Subject: Spring news',
    '',
    '--b1--',
    '',
  ].join('\r\n');
}

test('suppression list: a hard bounce is listed with its reason and campaign, searched, exported and removed', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('suppressions'),
      password: 'suppress-pass',
      confirmPassword: 'suppress-pass',
      firstName: 'Iris',
      lastName: 'Bloom',
      company: 'Garden Co',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  expect((await page.request.patch('/api/auth/user', { data: { postalAddress: '1 Garden Lane' } })).ok()).toBe(true);
  await confirmAccountEmail(page);
  await addConfirmedSender(page, 'news@garden.example');

  // ── Empty: reached from Contacts ───────────────────────────────────────────────
  await page.goto('/contacts');
  await page.getByRole('link', { name: 'Suppression list' }).click();
  await expect(page).toHaveURL(/\/contacts\/suppressions$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Suppression list' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No suppressed addresses' })).toBeVisible();
  await checkScreen(page, 'suppressions-empty');

  // ── A campaign goes out; one address hard-bounces through the inbound webhook ────
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: {
      csvData: 'email,firstName\nrose@example.com,Rose\nlily@example.com,Lily\n',
      createNewList: true,
      newListName: 'Garden friends',
    },
  });
  expect(imported.ok()).toBe(true);
  const { listId } = (await imported.json()) as { listId: number };
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Spring news',
      subject: 'Spring news',
      fromEmail: 'news@garden.example',
      content: { html: '' },
      blocks: [{ id: 'b1', type: 'text', content: { text: 'The garden is open.', tag: 'p' } }],
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
  const outbox = (await (await page.request.get('/api/outbox?search=rose%40example.com')).json()) as {
    messages: { messageId: string; campaignId: number | null }[];
  };
  const sent = outbox.messages.find((message) => message.campaignId === campaign.id);
  expect(sent).toBeDefined();
  const { token } = (await (await page.request.get('/api/webhook/email-address')).json()) as { token: string };
  const bounced = await page.request.post('/api/webhook/email', {
    headers: { 'content-type': 'message/rfc822', 'x-sendwell-token': token },
    data: hardBounceDsn(sent?.messageId ?? '', 'rose@example.com'),
  });
  expect(await bounced.json()).toMatchObject({ kind: 'bounce', reason: 'user-unknown', hard: true, matched: true });

  // ── Listed: who, why (the classified reason), from which campaign, since when ─────
  await page.reload();
  const row = page.getByRole('row', { name: /rose@example\.com/ });
  await expect(row).toBeVisible();
  await expect(row.getByText('Hard bounce')).toBeVisible();
  await expect(row.getByText(/^user-unknown: 5\.1\.1/)).toBeVisible();
  await expect(row.getByRole('link', { name: 'Spring news' })).toHaveAttribute(
    'href',
    `/campaigns/${campaign.id}/report`,
  );
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await checkScreen(page, 'suppressions-list');

  // ── Search ──────────────────────────────────────────────────────────────────────
  const search = page.getByRole('searchbox', { name: 'Search suppressed addresses' });
  await search.fill('lily');
  await expect(page.getByRole('heading', { name: 'No matching addresses' })).toBeVisible();
  await search.fill('ROSE');
  await expect(page.getByRole('row', { name: /rose@example\.com/ })).toBeVisible();

  // ── Export ──────────────────────────────────────────────────────────────────────
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('suppressions.csv');
  const csv = (await readFile(await download.path(), 'utf8')).trim().split('\r\n');
  expect(csv[0]).toBe('email,reason,detail,campaign,suppressed_at');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toMatch(/^rose@example\.com,bounce,user-unknown: 5\.1\.1 .*,Spring news,\d{4}-/);

  // ── Remove, behind a warning ─────────────────────────────────────────────────────
  await page.getByRole('button', { name: 'Remove rose@example.com' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove rose@example.com from the suppression list?' });
  await expect(dialog.getByText('can hurt your sender reputation')).toBeVisible();
  await expectAccessible(page, 'suppressions remove dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('row', { name: /rose@example\.com/ })).toBeVisible();
  await page.getByRole('button', { name: 'Remove rose@example.com' }).click();
  await dialog.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByText('rose@example.com can be mailed again.')).toBeVisible();
  await search.fill('');
  await expect(page.getByRole('heading', { name: 'No suppressed addresses' })).toBeVisible();
  expect(((await (await page.request.get('/api/suppressions')).json()) as { total: number }).total).toBe(0);
});
