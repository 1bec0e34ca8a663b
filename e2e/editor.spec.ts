import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { checkScreen, confirmAccountEmail, uniqueEmail } from './support.ts';

// Issue 22, finding 6: the campaign editor in a new user's first hour.

const PASSWORD = 'tulip-meadow-58';
const SAMPLE_JPEG = readFileSync(new URL('../apps/web/public/sample-images/spring-flowers.jpg', import.meta.url));

async function openNewCampaign(page: Page) {
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('editor'),
      password: PASSWORD,
      confirmPassword: PASSWORD,
      firstName: 'Ivy',
      lastName: 'Green',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  await confirmAccountEmail(page);
  await page.goto('/campaigns?new=1');
  const editor = page.getByRole('dialog', { name: 'New Campaign' });
  await expect(editor).toBeVisible();
  return {
    editor,
    canvas: editor.getByTestId('email-canvas'),
    panel: editor.getByRole('region', { name: 'Edit Component' }),
    preview: page.frameLocator('iframe[title="Email preview (desktop)"]'),
  };
}

test('editor: shipped sample image, alt reset, live link and size checks, Save Draft stays open, undo/redo, toolbar, hex', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // Nothing the editor shows comes from another host (an offline install must work).
  const appOrigin = new URL(baseURL ?? 'http://localhost').origin;
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== appOrigin) outside.push(request.url());
  });
  const { editor, canvas, panel, preview } = await openNewCampaign(page);

  // The template's picture is shipped with the app: same origin, a real JPEG, no hot-link.
  const image = canvas.locator('[data-block-type="image"] img');
  await expect(image).toHaveAttribute('src', /\/sample-images\/spring-flowers\.jpg$/);
  const src = (await image.getAttribute('src')) ?? '';
  expect(new URL(src).origin).toBe(new URL(page.url()).origin);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const served = await page.request.get(src);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toContain('image/jpeg');
  await expect(preview.locator('img[alt="Pink and purple spring flowers"]')).toBeVisible();

  // Replacing the picture clears the old alt text.
  await canvas.getByRole('button', { name: /^Edit Image/ }).click();
  await expect(panel.getByLabel('Alt text')).toHaveValue('Pink and purple spring flowers');
  await panel
    .getByLabel('Upload image')
    .setInputFiles({ name: 'roses.jpg', mimeType: 'image/jpeg', buffer: SAMPLE_JPEG });
  await expect(image).toHaveAttribute('src', /^\/uploads\/[a-f0-9]{32}\.jpe?g$/);
  await expect(panel.getByLabel('Alt text')).toHaveValue('');

  // A bad button link is flagged as it is typed, and the button stays in the preview.
  await canvas.getByRole('button', { name: /^Edit Button/ }).click();
  await panel.getByLabel('Button link').fill('shop.example/spring');
  await expect(panel.getByText('Enter a full http:// or https:// URL')).toBeVisible();
  await expect(panel.getByLabel('Button link')).toHaveAttribute('aria-invalid', 'true');
  await page.waitForTimeout(800); // the preview re-renders after a pause
  await expect(preview.getByText('Shop Now')).toBeVisible();
  await panel.getByLabel('Button link').fill('https://bloom.test/spring');
  await expect(panel.getByText('Enter a full http:// or https:// URL')).toHaveCount(0);

  // A font size out of range gets a message (it used to be dropped without a word).
  await canvas.getByRole('button', { name: /^Edit Heading 1/ }).click();
  await panel.getByLabel(/^Font size/).fill('500');
  await expect(panel.getByText('Font size must be a whole number from 8 to 72; still using 32.')).toBeVisible();
  await panel.getByLabel(/^Font size/).blur();
  await expect(panel.getByText('Font size must be a whole number from 8 to 72; still using 32.')).toBeVisible();
  await panel.getByLabel(/^Font size/).fill('40');
  await expect(panel.getByText(/Font size must be/)).toHaveCount(0);

  // The toolbar of the selected block does not cover its text.
  const heading = canvas.locator('li[data-block-type="text"]').first();
  const toolbarBox = await heading.locator('[data-block-toolbar]').boundingBox();
  const textBox = await heading.getByText('Spring Sale', { exact: true }).boundingBox();
  expect(toolbarBox && textBox).toBeTruthy();
  const overlaps =
    toolbarBox!.x < textBox!.x + textBox!.width &&
    textBox!.x < toolbarBox!.x + toolbarBox!.width &&
    toolbarBox!.y < textBox!.y + textBox!.height &&
    textBox!.y < toolbarBox!.y + toolbarBox!.height;
  expect(overlaps).toBe(false);
  expect(toolbarBox!.y + toolbarBox!.height).toBeLessThanOrEqual(textBox!.y);

  // Hex colour values are shown whole: inside their field, and not under any button.
  const fields = panel.locator('[data-color-field]');
  expect(await fields.count()).toBeGreaterThan(0);
  for (const field of await fields.all()) {
    const hex = field.locator('[data-hex-value]');
    await expect(hex).toHaveText(/^#[0-9a-f]{6}$/i);
    const hexBox = (await hex.boundingBox())!;
    const fieldBox = (await field.boundingBox())!;
    expect(hexBox.x + hexBox.width).toBeLessThanOrEqual(fieldBox.x + fieldBox.width + 0.5);
    for (const button of await field.getByRole('button').all()) {
      const b = (await button.boundingBox())!;
      const apart =
        b.x >= hexBox.x + hexBox.width ||
        hexBox.x >= b.x + b.width ||
        b.y >= hexBox.y + hexBox.height ||
        hexBox.y >= b.y + b.height;
      expect(apart).toBe(true);
    }
  }
  await page.screenshot({ path: 'test-results/editor-panel.png' });

  // Undo and redo over the block list: buttons, then Ctrl+Z / Shift+Ctrl+Z.
  const blocks = canvas.locator('li[data-block-id]');
  await expect(blocks).toHaveCount(6);
  await canvas
    .getByRole('button', { name: /^Delete Divider|^Delete Text “Fresh styles/ })
    .first()
    .click();
  await expect(blocks).toHaveCount(5);
  await editor.getByRole('button', { name: 'Undo' }).click();
  await expect(blocks).toHaveCount(6);
  await editor.getByRole('button', { name: 'Redo' }).click();
  await expect(blocks).toHaveCount(5);
  // The shortcut works with the focus anywhere in the editor but a text box (here: on the canvas heading).
  await editor.getByRole('heading', { name: 'Email Canvas' }).click();
  await page.keyboard.press('ControlOrMeta+z');
  await expect(blocks).toHaveCount(6);
  await page.keyboard.press('ControlOrMeta+Shift+z');
  await expect(blocks).toHaveCount(5);
  // Typing in a text box is one undo step, and undoing it brings the old text back.
  await canvas.getByRole('button', { name: /^Edit Heading 1/ }).click();
  await panel.getByLabel('Text', { exact: true }).fill('Summer Sale');
  await expect(canvas.getByRole('button', { name: /^Edit Heading 1 “Summer Sale”/ })).toBeVisible();
  await editor.getByRole('button', { name: 'Undo' }).click();
  await expect(canvas.getByRole('button', { name: /^Edit Heading 1 “Spring Sale”/ })).toBeVisible();

  // Save Draft keeps the editor open and says 'Saved'.
  await editor.getByRole('tab', { name: 'Settings' }).click();
  await editor.getByLabel('Campaign name').fill('Editor check');
  await editor.getByLabel('Subject line').fill('Spring is here');
  await editor.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Your campaign has been saved successfully!')).toBeVisible();
  await expect(editor).toBeVisible();
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  await page.screenshot({ path: 'test-results/editor-saved.png' });

  expect(outside).toEqual([]);
});

test('editor: preview text saved and sent, a typed image address clears the alt text, the checklist on the send confirmation, toasts clear of dialog headers on a phone', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { editor, canvas, panel } = await openNewCampaign(page);

  // The preview text (preheader) sits under the subject; the checklist shows it with the subject.
  await editor.getByRole('tab', { name: 'Settings' }).click();
  await editor.getByLabel('Campaign name').fill('Preheader check');
  await editor.getByLabel('Subject line').fill('Spring is here');
  const preheader = editor.getByLabel('Preview text');
  await expect(preheader).toHaveAccessibleDescription(/Shown after the subject in most inboxes/);
  await expect(editor.locator('[data-check="subject"]')).toContainText('no preview text');
  await preheader.fill('Up to 40% off the garden');
  await expect(editor.locator('[data-check="subject"]')).toContainText('preview: “Up to 40% off the garden”');
  await checkScreen(page, 'editor-preview-text');

  // Typing a new image address clears the alt text written for the old picture.
  await editor.getByRole('tab', { name: 'Design' }).click();
  await canvas.getByRole('button', { name: /^Edit Image/ }).click();
  await expect(panel.getByLabel('Alt text')).toHaveValue('Pink and purple spring flowers');
  await panel.getByLabel('Image address').fill('https://images.invalid/roses.jpg');
  await expect(panel.getByLabel('Alt text')).toHaveValue('');
  await panel.getByLabel('Alt text').fill('Red roses');
  await checkScreen(page, 'editor-image-alt');

  // Saved with the campaign.
  await editor.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Your campaign has been saved successfully!')).toBeVisible();
  const listed = (await (await page.request.get('/api/campaigns')).json()) as Array<{ id: number; name: string }>;
  const id = listed.find((c) => c.name === 'Preheader check')?.id;
  const saved = (await (await page.request.get(`/api/campaigns/${id}`)).json()) as {
    preheader: string | null;
    blocks: Array<{ type: string; content: { alt?: string; src?: string } }>;
  };
  expect(saved.preheader).toBe('Up to 40% off the garden');
  expect(saved.blocks.find((b) => b.type === 'image')?.content).toMatchObject({
    src: 'https://images.invalid/roses.jpg',
    alt: 'Red roses',
  });

  // On a phone, a toast stands clear of the open dialog's header (title and close button).
  await page.setViewportSize({ width: 390, height: 844 });
  await editor.getByRole('button', { name: 'Save Draft' }).click();
  // The modal editor hides the rest of the page from the accessibility tree, so the toast is found by its place.
  const toast = page.locator('ol > li', { hasText: 'Your campaign has been saved successfully!' }).last();
  await expect(toast).toBeVisible();
  await page.waitForTimeout(400); // the toast slides in
  const toastBox = (await toast.boundingBox())!;
  const titleBox = (await editor.getByRole('heading').first().boundingBox())!;
  expect(toastBox.y).toBeGreaterThanOrEqual(titleBox.y + titleBox.height);
  await page.screenshot({ path: 'test-results/editor-phone-toast.png' });
  await page.setViewportSize({ width: 1440, height: 900 });

  // The send confirmation from the Campaigns list shows the same checklist; with something to fix,
  // Send Now is disabled.
  await editor.getByRole('button', { name: 'Cancel' }).first().click();
  await expect(editor).toBeHidden();
  await page.getByRole('button', { name: 'Send Preheader check' }).first().click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('heading', { name: 'Before you send' })).toBeVisible();
  await expect(confirm.locator('[data-check="subject"]')).toContainText('preview: “Up to 40% off the garden”');
  await expect(confirm.locator('[data-check="postal-address"]')).toHaveAttribute('data-status', 'blocked');
  await expect(confirm.locator('[data-check="recipients"]')).toHaveAttribute('data-status', 'blocked');
  await expect(confirm.getByTestId('pre-send-summary-status')).toContainText('fixing in the editor');
  const sendNow = confirm.getByRole('button', { name: 'Send Now' });
  if ((await sendNow.count()) > 0) await expect(sendNow).toBeDisabled();
  await checkScreen(page, 'campaign-send-confirm-checklist');
  await confirm.getByRole('button', { name: /^(Cancel|Close)$/ }).click();
});
