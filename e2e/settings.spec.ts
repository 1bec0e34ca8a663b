import { expect, test } from '@playwright/test';
import { checkScreen, expectAccessible, pickOption, uniqueEmail } from './support.ts';

test('settings: API keys are created (secret shown once, copied), used, listed and revoked; the rate limit is saved', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('settings'),
      password: 'settings-pass-1',
      confirmPassword: 'settings-pass-1',
      firstName: 'Kit',
      lastName: 'Keys',
      company: 'Key Co',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);

  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'API' })).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Receiving mail' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Bounces', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Webhooks' })).toBeVisible();
  await expect(page.getByText(/^No endpoint yet: events go nowhere.$/)).toBeVisible();
  await expect(page.getByLabel('Requests per second, per key')).toHaveValue('10');
  await checkScreen(page, 'settings');

  // ── Create: the name is required; a sending-only key ──────────────────────────────────────
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API Key' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Create Key' }).click();
  await expect(dialog.getByText('Give the key a name')).toBeVisible();
  await dialog.getByLabel('Name').fill('CRM sync');
  await pickOption(dialog, 'Access', 'Sending only');
  await expect(dialog.getByRole('combobox', { name: 'Sending domain' })).toHaveText('Any domain');
  await checkScreen(page, 'settings-create-api-key');
  await dialog.getByRole('button', { name: 'Create Key' }).click();

  // ── The secret, shown once, copied ────────────────────────────────────────────────────────
  const createdDialog = page.getByRole('dialog', { name: 'API Key Created' });
  await expect(createdDialog.getByText('This is the only time the key is shown.')).toBeVisible();
  const secretField = createdDialog.getByLabel('API key “CRM sync”');
  await expect(secretField).toHaveValue(/^sw_live_[\w-]{43}$/);
  const secret = await secretField.inputValue();
  await createdDialog.getByRole('button', { name: 'Copy' }).click();
  await expect(createdDialog.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await checkScreen(page, 'settings-api-key-created');
  await createdDialog.getByRole('button', { name: 'Done' }).click();
  await expect(createdDialog).toBeHidden();

  // ── The key works by its header, within its scope ─────────────────────────────────────────
  const auth = { authorization: `Bearer ${secret}` };
  expect((await request.get('/api/campaigns', { headers: auth })).status()).toBe(200);
  expect((await request.get('/api/contacts', { headers: auth })).status()).toBe(403);

  const row = page.locator('[data-api-key="CRM sync"]');
  await expect(row.getByText('Sending only')).toBeVisible();
  await expect(row.getByText(secret.slice(0, 12))).toBeVisible();
  await page.reload();
  await expect(row.getByText(/last used/)).toBeVisible();
  // The secret itself is never shown again.
  await expect(page.getByText(secret)).toHaveCount(0);

  // ── Revoke ────────────────────────────────────────────────────────────────────────────────
  await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke “CRM sync”?' });
  await expectAccessible(page, 'settings: revoke API key');
  await confirm.getByRole('button', { name: 'Revoke Key' }).click();
  await expect(confirm).toBeHidden();
  await expect(row.getByText('Revoked', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Revoke CRM sync' })).toHaveCount(0);
  expect((await request.get('/api/campaigns', { headers: auth })).status()).toBe(401);

  // ── The rate limit ────────────────────────────────────────────────────────────────────────
  const rate = page.getByLabel('Requests per second, per key');
  await rate.fill('0');
  await page.getByRole('button', { name: 'Save Limit' }).click();
  await expect(page.getByText('Enter a whole number of requests per second from 1 to 100')).toBeVisible();
  await rate.fill('25');
  await page.getByRole('button', { name: 'Save Limit' }).click();
  await expect(page.getByText('Each key may make 25 requests per second.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Requests per second, per key')).toHaveValue('25');

  // ── The API reference, from the same section ─────────────────────────────────────────────
  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API Reference' })).toBeVisible();
  const send = page.locator('[data-operation="post /api/campaigns/{id}/send"]');
  await expect(send.getByText(`curl -X POST '${new URL(page.url()).origin}/api/campaigns/{id}/send'`)).toBeVisible();
  await expect(page.locator('[data-operation="get /api/api-keys"]')).toHaveCount(0);
  await checkScreen(page, 'api-reference');
  await page.goto('/settings');

  // ── Dark, at phone width ──────────────────────────────────────────────────────────────────
  await page.evaluate(() => document.documentElement.classList.add('dark'));
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, 'settings (phone, dark)');
});

test('settings: the sunset policy is on by default, says where contacts stand, refuses a bad value and saves a re-engagement sequence', async ({
  page,
}) => {
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('sunset'),
      password: 'sunset-pass-1',
      confirmPassword: 'sunset-pass-1',
      firstName: 'Sol',
      lastName: 'Sunset',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  const sequence = await page.request.post('/api/email-sequences', { data: { name: 'Still interested?' } });
  expect(sequence.status()).toBe(201);

  await page.goto('/settings#sunset');
  const card = page.getByRole('form', { name: 'Sunset policy' });
  await expect(page.getByRole('heading', { level: 2, name: 'Unengaged contacts' })).toBeVisible();
  await expect(page.getByTestId('sunset-reengaging')).toHaveText('0');
  await expect(page.getByTestId('sunset-suppressed')).toHaveText('0');
  await expect(page.getByText('Not checked yet: it runs daily.')).toBeVisible();
  await expect(card.getByRole('switch', { name: /Sunset unengaged contacts/ })).toBeChecked();
  await expect(card.getByLabel('Days without engagement')).toHaveValue('180');
  await expect(card.getByLabel('Messages received')).toHaveValue('10');
  await expect(card.getByLabel('Days to re-engage')).toHaveValue('30');

  await card.getByLabel('Days without engagement').fill('10');
  await card.getByRole('button', { name: 'Save sunset policy' }).click();
  await expect(card.getByRole('alert')).toHaveText('Days without engagement must be from 30 to 730');

  await card.getByLabel('Days without engagement').fill('120');
  await pickOption(card, 'Re-engagement sequence', 'Still interested? (draft: enrols nobody yet)');
  await card.getByRole('button', { name: 'Save sunset policy' }).click();
  await expect(page.getByText('Sunset policy saved').first()).toBeVisible();
  await checkScreen(page, 'settings-sunset');

  await page.reload();
  await expect(card.getByLabel('Days without engagement')).toHaveValue('120');
  await expect(card.getByRole('combobox', { name: 'Re-engagement sequence' })).toHaveText(
    'Still interested? (draft: enrols nobody yet)',
  );
});
