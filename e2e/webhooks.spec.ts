import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { checkScreen, confirmAccountEmail, uniqueEmail } from './support.ts';

test('webhooks: add an endpoint, reveal its secret, send a signed test event, rotate, replay', async ({ page }) => {
  test.setTimeout(180_000);
  // A local receiver (development allows http to loopback).
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sendwell`;
  try {
    const signup = await page.request.post('/api/auth/signup', {
      data: {
        email: uniqueEmail('webhooks'),
        password: 'webhook-pass-1',
        confirmPassword: 'webhook-pass-1',
        firstName: 'Wendy',
        lastName: 'Hook',
        company: 'Hook Co',
        plan: 'pro',
      },
    });
    expect(signup.status()).toBe(201);
    await confirmAccountEmail(page);

    // ── Empty, from the sidebar ──────────────────────────────────────────────────
    await page.goto('/');
    await page.getByRole('link', { name: 'Webhooks' }).first().click();
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No endpoints yet' })).toBeVisible();
    await checkScreen(page, 'webhooks-empty');

    // ── The dialog refuses a private address, then adds the endpoint ──────────────
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByLabel('Endpoint URL').fill('https://10.0.0.5/hook');
    await dialog.getByLabel('Description (optional)').fill('CRM sync');
    await dialog.getByRole('checkbox', { name: 'contact.created' }).click();
    await checkScreen(page, 'webhooks-create-dialog');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByText('10.0.0.5 resolves to a private address (10.0.0.5)')).toBeVisible();
    await dialog.getByLabel('Endpoint URL').fill(url);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(page).toHaveURL(/\/webhooks\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Webhook endpoint' })).toBeVisible();
    await expect(page.getByText(url)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No deliveries yet' })).toBeVisible();

    // ── Reveal the secret; a test event arrives signed with it ───────────────────
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const secretText = page.getByText(/^whsec_[A-Za-z0-9+/]{32}$/);
    await expect(secretText).toBeVisible();
    const secret = (await secretText.textContent()) ?? '';
    await page.getByRole('button', { name: 'Send test event' }).click();
    const deliveries = page.getByRole('list', { name: 'Deliveries' });
    await expect(deliveries.getByText('Delivered')).toBeVisible({ timeout: 30_000 });
    await expect(deliveries.getByText('webhook.test')).toBeVisible();
    expect(received).toHaveLength(1);
    const first = received[0] as { headers: IncomingHttpHeaders; body: string };
    expect(new Webhook(secret).verify(first.body, first.headers as Record<string, string>)).toMatchObject({
      type: 'webhook.test',
    });
    await page.getByText('Attempts').click();
    await expect(deliveries.getByText('thanks')).toBeVisible();
    await checkScreen(page, 'webhooks-endpoint');

    // ── Rotate: the replay carries both signatures ────────────────────────────────
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Rotate secret' }).click();
    await expect(page.getByText('The previous secret also signs until')).toBeVisible();
    // The shown secret changes once the rotation's answer arrives: wait for that state, then read it.
    const shownSecret = page.getByText(/^whsec_[A-Za-z0-9+/]{32}$/);
    await expect(shownSecret).not.toHaveText(secret);
    const rotated = (await shownSecret.textContent()) ?? '';
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: /^Replay webhook\.test delivery/ }).click();
    await expect(deliveries.getByText('Delivered')).toHaveCount(2, { timeout: 30_000 });
    const replayed = received[1] as { headers: IncomingHttpHeaders; body: string };
    expect(replayed.headers['webhook-id']).toBe(first.headers['webhook-id']);
    for (const key of [secret, rotated])
      expect(new Webhook(key).verify(replayed.body, replayed.headers as Record<string, string>)).toBeTruthy();

    // ── Disable, then back to the list ────────────────────────────────────────────
    await page.getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByText('Disabled by you')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send test event' })).toBeDisabled();
    await page.getByRole('link', { name: 'Webhooks' }).last().click();
    const endpoints = page.getByRole('list', { name: 'Webhook endpoints' });
    await expect(endpoints.getByText(url)).toBeVisible();
    await expect(endpoints.getByText('Disabled')).toBeVisible();
    await expect(endpoints.getByText('CRM sync · 1 event')).toBeVisible();
    await checkScreen(page, 'webhooks-list');
  } finally {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  }
});
