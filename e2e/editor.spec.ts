import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
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

// Issue 30: the new blocks end to end, columns' blocks chosen with the pointer.
test('editor: rich text with a tracked link, columns, social, video and HTML blocks; an image file dropped where it lands; the sent mail at 375 px stacks its columns', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { editor, canvas, panel, preview } = await openNewCampaign(page);

  // Rich text: a bold word and a link in the greeting, written in the text block's editor.
  await canvas.getByRole('button', { name: /^Edit Text “Hi \{\{firstName\|there\}\}/ }).click();
  const text = panel.getByRole('textbox', { name: 'Text', exact: true });
  await text.fill('Read the spring journal');
  await text.press('ControlOrMeta+a');
  await panel.getByRole('button', { name: 'Link', exact: true }).click();
  await page.getByLabel('Link address').fill('https://bloom.test/journal');
  await page.getByRole('button', { name: 'Apply' }).click();
  await panel.getByRole('button', { name: 'Bold', exact: true }).click();
  await expect(text.locator('strong a, a strong')).toHaveText('Read the spring journal');
  await expect(
    preview.locator('a[href="https://bloom.test/journal"] strong, strong a[href="https://bloom.test/journal"]'),
  ).toBeVisible();

  // The new blocks, added by click (the keyboard path).
  for (const name of ['Columns', 'Social links', 'Video', 'HTML']) {
    await editor.getByRole('button', { name: `Add ${name} block` }).click();
  }
  await expect(canvas.locator('li[data-block-id]')).toHaveCount(10);
  await panel.getByRole('textbox', { name: 'HTML' }).fill('<p style="margin:0;">Our <b>own</b> HTML</p>');
  await canvas.getByRole('button', { name: /^Edit Video/ }).click();
  await panel.getByLabel('Video link').fill('https://bloom.test/video');
  await expect(preview.getByText('Play video')).toBeVisible();
  await expect(preview.locator('img[alt="Facebook"]')).toBeVisible();
  // A block added to a column, then the columns made three.
  await canvas.getByRole('button', { name: 'Add a block to column 2' }).click();
  await page.getByRole('menuitem', { name: 'Heading' }).click();
  await panel.getByLabel('Heading', { exact: true }).fill('Right side');
  await expect(canvas.getByRole('group', { name: 'Column 2' }).getByText('Right side')).toBeVisible();
  await canvas.getByRole('button', { name: /^Edit 2 columns/ }).click();
  await panel.getByRole('radio', { name: '3 columns' }).click();
  await expect(canvas.getByRole('group', { name: 'Column 3' })).toBeVisible();
  // The starting columns hold a button to example.com: give it a real link.
  await canvas
    .getByRole('group', { name: 'Column 1' })
    .getByRole('button', { name: /^Edit Button/ })
    .click();
  await panel.getByLabel('Button link').fill('https://bloom.test/left');
  await canvas
    .getByRole('group', { name: 'Column 1' })
    .getByRole('button', { name: /^Edit Text/ })
    .click();
  await panel.getByRole('textbox', { name: 'Text', exact: true }).fill('Left column words');
  await checkScreen(page, 'editor-new-blocks');

  // An image file dropped on the canvas goes where it was dropped: here before the divider-less
  // template's second block, not at the end.
  const second = canvas.locator('li[data-block-id]').nth(1);
  const box = (await second.boundingBox())!;
  const drop = await page.evaluateHandle(
    async ({ bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'tulips.jpg', { type: 'image/jpeg' }));
      return transfer;
    },
    { bytes: [...SAMPLE_JPEG] },
  );
  const at = { clientX: box.x + box.width / 2, clientY: box.y + 4 };
  await canvas.dispatchEvent('dragover', { dataTransfer: drop, ...at });
  await canvas.dispatchEvent('drop', { dataTransfer: drop, ...at });
  await expect(canvas.locator('li[data-block-id]').nth(1)).toHaveAttribute('data-block-type', 'image');
  await expect(canvas.locator('li[data-block-id]').nth(1).locator('img')).toHaveAttribute('src', /^\/uploads\//);
  await expect(canvas.locator('li[data-block-id]')).toHaveCount(11);

  // Saved, then sent for real to a contact; the mail as delivered is measured at 375 px.
  const email = (await (await page.request.get('/api/auth/user')).json()) as { email: string };
  expect((await page.request.patch('/api/auth/user', { data: { postalAddress: '1 Garden Lane' } })).ok()).toBe(true);
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: { csvData: 'email,firstName\nrose@example.com,Rose\n', createNewList: true, newListName: 'Readers' },
  });
  const { listId } = (await imported.json()) as { listId: number };
  await editor.getByRole('tab', { name: 'Settings' }).click();
  await editor.getByLabel('Campaign name').fill('Blocks check');
  const subject = `Columns ${Date.now()}`;
  await editor.getByLabel('Subject line').fill(subject);
  await editor.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Your campaign has been saved successfully!')).toBeVisible();
  const campaigns = (await (await page.request.get('/api/campaigns')).json()) as { id: number; subject: string }[];
  const campaign = campaigns.find((c) => c.subject === subject)!;
  const patched = await page.request.patch(`/api/campaigns/${campaign.id}`, {
    data: { listIds: [listId], fromEmail: email.email },
  });
  expect(patched.ok(), await patched.text()).toBe(true);
  const sent = await page.request.post(`/api/campaigns/${campaign.id}/send`);
  expect(sent.ok(), await sent.text()).toBe(true);
  let html = '';
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`/api/outbox?search=${encodeURIComponent(subject)}`);
        const { messages } = (await answer.json()) as { messages: { id: number; subject: string }[] };
        const message = messages.find((m) => m.subject === subject);
        if (!message) return '';
        // The mail as delivered (the Outbox's own `html` leaves tracking out for the sender's eyes).
        const { raw } = (await (await page.request.get(`/api/outbox/${message.id}`)).json()) as { raw: string };
        const parsed = await simpleParser(raw);
        html = typeof parsed.html === 'string' ? parsed.html : '';
        return html;
      },
      { timeout: 60_000 },
    )
    .toContain('sw-col');
  // The rich-text link is tracked, not the bare address.
  expect(html).toMatch(
    /<a href="[^"]*\/t\/c\/[^"]+" target="_blank" style="color:#2563eb;text-decoration:underline;"><strong>Read the spring journal<\/strong><\/a>/,
  );
  expect(html).not.toContain('https://bloom.test/journal');

  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 375, height: 812 });
  await phone.goto('/');
  await phone.setContent(html, { waitUntil: 'load' });
  const layout = await phone.evaluate(() => {
    const columns = [...document.querySelectorAll<HTMLElement>('.sw-col')].map((col) => col.getBoundingClientRect());
    return {
      scrollWidth: document.documentElement.scrollWidth,
      columns: columns.map((r) => ({ left: Math.round(r.left), top: Math.round(r.top), width: Math.round(r.width) })),
    };
  });
  expect(layout.scrollWidth).toBeLessThanOrEqual(375);
  expect(layout.columns).toHaveLength(3);
  // Stacked: one under another, each the full width of the mail, none beside another.
  for (let i = 1; i < layout.columns.length; i += 1) {
    expect(layout.columns[i]!.top).toBeGreaterThan(layout.columns[i - 1]!.top);
    expect(layout.columns[i]!.left).toBe(layout.columns[0]!.left);
  }
  expect(layout.columns[0]!.width).toBeGreaterThan(300);
  await phone.screenshot({ path: 'test-results/screens/sent-mail-375.png', fullPage: true });
  // At desktop width the same mail keeps its three columns side by side.
  await phone.setViewportSize({ width: 900, height: 900 });
  const tops = await phone.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.sw-col')].map((col) => Math.round(col.getBoundingClientRect().top)),
  );
  expect(new Set(tops).size).toBe(1);
  await phone.close();
});
