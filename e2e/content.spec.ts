import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { checkEveryLook, confirmAccountEmail, pickOption, uniqueEmail } from './support.ts';

// Issue 30: the brand kit (part 2), saved blocks (part 5) and the preview that tells the truth (part 7).

const PASSWORD = 'copper-lantern-41';
const SAMPLE_JPEG = readFileSync(new URL('../apps/web/public/sample-images/spring-flowers.jpg', import.meta.url));

async function signUp(page: Page): Promise<string> {
  const email = uniqueEmail('content');
  const signup = await page.request.post('/api/auth/signup', {
    data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Ivy', lastName: 'Green', plan: 'pro' },
  });
  expect(signup.status()).toBe(201);
  await confirmAccountEmail(page);
  return email;
}

async function openNewCampaign(page: Page) {
  await page.goto('/campaigns?new=1');
  const editor = page.getByRole('dialog', { name: 'New Campaign' });
  // The first page of a run loads the app's chunks cold on a loaded shared host.
  await expect(editor).toBeVisible({ timeout: 60_000 });
  const canvas = editor.getByTestId('email-canvas');
  // The editor is its own chunk, loaded when the dialog opens: as cold as the first page on a loaded host.
  await expect(canvas.locator('[data-block-type]').first()).toBeVisible({ timeout: 60_000 });
  return { editor, canvas, panel: editor.getByRole('region', { name: 'Edit Component' }) };
}

/** The block types on the canvas, top to bottom. */
async function blockTypes(canvas: Locator): Promise<string[]> {
  return canvas
    .locator('[data-block-type]')
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-block-type') ?? ''));
}

test('brand kit: set once in Settings, every new campaign starts with its header, footer, colours and font', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page);
  await page.goto('/settings#brand-kit');
  const card = page.getByRole('form', { name: 'Brand kit' });
  await expect(card).toBeVisible({ timeout: 60_000 });

  // A bad colour is refused before anything is sent.
  await card.getByLabel('Brand colour (buttons)', { exact: true }).fill('green');
  await card.getByRole('button', { name: 'Save brand kit' }).click();
  await expect(card.getByRole('alert')).toHaveText('Colours are hex values like #1a2b3c');

  await card
    .locator('input[type="file"]')
    .setInputFiles({ name: 'logo.jpg', mimeType: 'image/jpeg', buffer: SAMPLE_JPEG });
  await expect(card.getByLabel('Logo address')).toHaveValue(/^\/uploads\/[a-f0-9]{32}\.jpe?g$/);
  await card.getByLabel('Logo description (alt text)').fill('Bloom & Co');
  await card.getByLabel('Brand colour (buttons)', { exact: true }).fill('#166534');
  await card.getByLabel('Text colour', { exact: true }).fill('#1f2937');
  await pickOption(card, 'Font', 'Georgia');
  await card.getByLabel('Footer address').fill('Bloom & Co, 4 Garden Row, Springfield');
  const sample = card.getByRole('figure', { name: 'Brand kit sample' });
  await expect(sample.getByRole('img', { name: 'Bloom & Co' })).toBeVisible();
  await expect(sample.getByText('Bloom & Co, 4 Garden Row, Springfield')).toBeVisible();
  await card.getByRole('button', { name: 'Save brand kit' }).click();
  await expect(page.getByText('Brand kit saved', { exact: true })).toBeVisible();
  await checkEveryLook(page, 'brand-kit');

  // A new campaign starts in the kit: the logo on top, the address at the foot, the brand's button and font.
  const { canvas } = await openNewCampaign(page);
  await expect
    .poll(() => blockTypes(canvas))
    .toEqual(['image', 'text', 'text', 'text', 'image', 'text', 'button', 'text']);
  const blocks = canvas.locator('[data-block-type]');
  await expect(blocks.first().getByRole('img', { name: 'Bloom & Co' })).toBeVisible();
  await expect(blocks.last()).toContainText('Bloom & Co, 4 Garden Row, Springfield');
  const button = canvas.locator('[data-block-type="button"] span.inline-block');
  await expect(button).toHaveCSS('background-color', 'rgb(22, 101, 52)');
  await expect(button).toHaveCSS('font-family', /Georgia/);
  const preview = page.frameLocator('iframe[title="Email preview (desktop)"]');
  await expect(preview.getByText('Bloom & Co, 4 Garden Row, Springfield')).toBeVisible();
});

test('saved blocks: save a block from the canvas, add it by click, keyboard and drag, rename and delete it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page);
  const { editor, canvas, panel } = await openNewCampaign(page);
  const saved = editor.getByRole('region', { name: 'Saved blocks' });
  await canvas.getByRole('button', { name: /^Edit Button/ }).click();
  await expect(saved.getByText('None yet: select a block on the email and choose Save block.')).toBeVisible();
  await panel.getByRole('button', { name: 'Save block' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save block' });
  await dialog.getByLabel('Block name').fill('Shop button');
  await dialog.getByRole('button', { name: 'Save block' }).click();
  await expect(dialog).toHaveCount(0);
  const item = saved.getByRole('button', { name: /Add saved block Shop button/ });
  await expect(item).toBeVisible();

  const buttons = canvas.locator('[data-block-type="button"]');
  await expect(buttons).toHaveCount(1);
  await item.click();
  await expect(buttons).toHaveCount(2);
  await item.focus();
  await page.keyboard.press('Enter');
  await expect(buttons).toHaveCount(3);
  // Dragged onto the first block of the email: it lands on top.
  const first = canvas.locator('[data-block-type]').first();
  await panel.getByRole('button', { name: 'Close Edit Component' }).click();
  await first.scrollIntoViewIfNeeded();
  await item.scrollIntoViewIfNeeded();
  const from = await item.boundingBox();
  if (!from) throw new Error('saved block not visible');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 12, from.y + from.height / 2 + 12, { steps: 4 });
  const to = await first.boundingBox();
  if (!to) throw new Error('canvas not visible');
  await page.mouse.move(to.x + to.width / 2, to.y + 6, { steps: 20 });
  await page.mouse.up();
  await expect(buttons).toHaveCount(4);
  await expect.poll(async () => (await blockTypes(canvas))[0]).toBe('button');
  await checkEveryLook(page, 'saved-blocks');

  // Rename and delete through its menu.
  await saved.getByRole('button', { name: 'More for Shop button' }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename saved block' });
  await rename.getByLabel('Block name').fill('Main call to action');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(saved.getByRole('button', { name: /Add saved block Main call to action/ })).toBeVisible();
  await saved.getByRole('button', { name: 'More for Main call to action' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(saved.getByText('None yet: select a block on the email and choose Save block.')).toBeVisible();
  // Campaigns keep their copies.
  await expect(buttons).toHaveCount(4);
});

test('preview: as everyone or a chosen contact, conditional blocks, dark mode and plain text, content checks', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page);
  for (const contact of [
    { email: 'ann@acme.test', firstName: 'Ann', lastName: 'Lee', company: 'Acme', location: 'Berlin' },
    { email: 'bob@other.test', firstName: 'Bob', lastName: 'Stone', company: 'Other', location: 'Paris' },
  ]) {
    const created = await page.request.post('/api/contacts', { data: contact });
    expect(created.status(), await created.text()).toBe(201);
  }
  const segment = await page.request.post('/api/contact-segments', {
    data: {
      name: 'Acme people',
      conditions: { operator: 'AND', rules: [{ id: '1', field: 'company', operator: 'equals', value: 'Acme' }] },
    },
  });
  expect(segment.status(), await segment.text()).toBe(201);

  const { editor, canvas, panel } = await openNewCampaign(page);
  // The Shop Now button goes only to the segment.
  await canvas.getByRole('button', { name: /^Edit Button/ }).click();
  await pickOption(panel, 'Show to', 'Contacts in a segment');
  await expect(panel.getByRole('combobox', { name: 'Segment', exact: true })).toHaveText('Acme people');

  const desktop = page.frameLocator('iframe[title="Email preview (desktop)"]');
  // Everyone: every block, the user's own name.
  await expect(desktop.getByText('Shop Now')).toBeVisible();
  await expect(desktop.getByText(/^Hi Ivy, spring is here/)).toBeVisible();
  await pickOption(editor, 'Preview as', 'Bob Stone (bob@other.test)');
  await expect(desktop.getByText(/^Hi Bob, spring is here/)).toBeVisible();
  await expect(desktop.getByText('Shop Now')).toHaveCount(0);
  await pickOption(editor, 'Preview as', 'Ann Lee (ann@acme.test)');
  await expect(desktop.getByText(/^Hi Ann, spring is here/)).toBeVisible();
  await expect(desktop.getByText('Shop Now')).toBeVisible();
  // The sample picture loads inside the sandboxed preview (served for any origin).
  await expect
    .poll(() =>
      desktop
        .locator('img[alt="Pink and purple spring flowers"]')
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    )
    .toBeGreaterThan(0);
  await checkEveryLook(page, 'preview-as-contact');

  // Dark mode and the plain-text part, for the same contact.
  await editor.getByRole('radio', { name: 'Dark mode preview' }).click();
  const dark = page.frameLocator('iframe[title="Email preview (dark)"]');
  await expect(dark.getByText(/^Hi Ann, spring is here/)).toBeVisible();
  await editor.getByRole('radio', { name: 'Plain-text preview' }).click();
  const text = editor.getByLabel('Plain-text part');
  await expect(text).toContainText('Hi Ann, spring is here');
  await expect(text).toContainText('Shop Now');
  await checkEveryLook(page, 'preview-text');

  // The content check beside the pre-send checklist: an image without alt text is pointed out.
  await editor.getByRole('radio', { name: 'Desktop preview' }).click();
  await canvas.getByRole('button', { name: /^Edit Image/ }).click();
  await panel.getByLabel('Alt text').fill('');
  await editor.getByRole('tab', { name: 'Settings' }).click();
  const altCheck = editor.locator('[data-check="alt-text"]');
  await expect(altCheck).toHaveAttribute('data-status', 'warning');
  await expect(altCheck).toContainText('1 image has no alt text');
  await altCheck.getByRole('button', { name: 'Describe the image' }).click();
  await expect(panel.getByLabel('Alt text')).toBeVisible();
});
