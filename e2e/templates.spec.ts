import { expect, test, type Page } from '@playwright/test';
import { checkScreen, confirmAccountEmail, uniqueEmail } from './support.ts';

// Issue 30 parts 4 and 5: templates, duplicate, autosave and campaigns written in their own HTML.

const PASSWORD = 'maple-harbour-73';

async function signUp(page: Page): Promise<string> {
  const email = uniqueEmail('templates');
  const signup = await page.request.post('/api/auth/signup', {
    data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Ivy', lastName: 'Green', plan: 'pro' },
  });
  expect(signup.status()).toBe(201);
  await confirmAccountEmail(page);
  return email;
}

async function createDraft(page: Page, email: string, name: string): Promise<number> {
  const response = await page.request.post('/api/campaigns', {
    data: {
      name,
      subject: 'Hello {{firstName|friend}}',
      fromEmail: email,
      content: { html: '' },
      blocks: [
        { id: 'b1', type: 'text', content: { text: 'Harvest news', tag: 'h1' } },
        { id: 'b2', type: 'text', content: { text: 'The apples are in.', tag: 'p' } },
      ],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

test('templates: the gallery, start from one, save as a template, rename, use and delete it, and duplicate a campaign', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const appOrigin = new URL(baseURL ?? 'http://localhost').origin;
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== appOrigin) outside.push(request.url());
  });
  const email = await signUp(page);
  await createDraft(page, email, 'Harvest letter');
  await page.goto('/campaigns');
  // The first page of a run loads the app's chunks cold; on the loaded shared host that took over 15 s.
  await expect(page.getByRole('heading', { level: 1, name: 'Email Campaigns' })).toBeVisible({ timeout: 60_000 });

  // ── The gallery: six starting templates and your own HTML, pictures served by the app ──
  await page.getByRole('button', { name: 'Templates' }).click();
  const gallery = page.getByRole('dialog', { name: 'Start from a template' });
  await expect(gallery).toBeVisible();
  const cards = gallery.getByRole('list', { name: 'Starting templates' }).getByRole('button');
  await expect(cards).toHaveCount(7);
  for (const name of ['Newsletter', 'Announcement', 'Promotion', 'Welcome', 'Event invitation', 'Plain letter']) {
    await expect(gallery.getByRole('button', { name: `Use the ${name} template` })).toBeVisible();
  }
  const pictures = gallery.locator('img');
  await expect(pictures).toHaveCount(6);
  for (const picture of await pictures.all()) {
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }
  await checkScreen(page, 'templates-gallery');
  await gallery.getByRole('tab', { name: 'Your templates (0)' }).click();
  await expect(gallery.getByText('No saved templates yet')).toBeVisible();
  await gallery.getByRole('tab', { name: 'Starting templates' }).click();

  // ── Start from the Newsletter: its blocks and subject are in the new campaign ──
  await gallery.getByRole('button', { name: 'Use the Newsletter template' }).click();
  const editor = page.getByRole('dialog', { name: 'New Campaign' });
  await expect(editor).toBeVisible();
  await expect(editor.getByText('Started from “Newsletter”', { exact: false })).toBeVisible();
  const canvas = editor.getByTestId('email-canvas');
  await expect(canvas.getByText('The Monthly Letter')).toBeVisible();
  await expect(editor.getByLabel('Subject line')).toHaveValue('This month at {{company|our place}}');
  await expect(
    page.frameLocator('iframe[title="Email preview (desktop)"]').getByText('The Monthly Letter'),
  ).toBeVisible();

  // ── Save as template ──
  await editor.getByRole('button', { name: 'Save as template' }).click();
  const nameDialog = page.getByRole('dialog', { name: 'Save as template' });
  await nameDialog.getByLabel('Template name').fill('');
  await nameDialog.getByRole('button', { name: 'Save template' }).click();
  await expect(nameDialog.getByText('Template name is required')).toBeVisible();
  await nameDialog.getByLabel('Template name').fill('Our newsletter');
  await nameDialog.getByRole('button', { name: 'Save template' }).click();
  await expect(nameDialog).toHaveCount(0);
  await expect(page.getByText('“Our newsletter” is in Your templates.')).toBeVisible();
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);

  // ── Your templates: rename, use (same blocks), delete ──
  await page.getByRole('button', { name: 'Templates' }).click();
  await gallery.getByRole('tab', { name: 'Your templates (1)' }).click();
  await gallery.getByRole('button', { name: 'Rename Our newsletter' }).click();
  const renameDialog = page.getByRole('dialog', { name: 'Rename template' });
  await renameDialog.getByLabel('Template name').fill('Team newsletter');
  await renameDialog.getByRole('button', { name: 'Rename' }).click();
  await expect(renameDialog).toHaveCount(0);
  await expect(gallery.getByText('Team newsletter')).toBeVisible();
  await checkScreen(page, 'templates-saved');
  await gallery.getByRole('button', { name: 'Use Team newsletter' }).click();
  await expect(editor).toBeVisible();
  await expect(canvas.getByText('The Monthly Letter')).toBeVisible();
  await expect(canvas.locator('[data-block-type]')).toHaveCount(9);
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);
  await page.getByRole('button', { name: 'Templates' }).click();
  await gallery.getByRole('tab', { name: 'Your templates (1)' }).click();
  await gallery.getByRole('button', { name: 'Delete Team newsletter' }).click();
  const confirmDelete = page.getByRole('alertdialog', { name: 'Delete this template?' });
  await confirmDelete.getByRole('button', { name: 'Delete template' }).click();
  await expect(confirmDelete).toHaveCount(0);
  await expect(gallery.getByText('No saved templates yet')).toBeVisible();
  // Not Escape: the "Template deleted" toast is the topmost layer, and Escape dismisses it first.
  await gallery.getByRole('button', { name: 'Close' }).click();
  await expect(gallery).toHaveCount(0);

  // ── Duplicate: a new draft "Copy of …", opened in the editor ──
  await page.getByRole('button', { name: 'Duplicate Harvest letter' }).first().click();
  const copy = page.getByRole('dialog', { name: 'Edit Campaign' });
  await expect(copy).toBeVisible();
  await expect(copy.getByText('Copy of Harvest letter')).toBeVisible();
  await expect(copy.getByTestId('email-canvas').getByText('Harvest news')).toBeVisible();
  await copy.getByRole('button', { name: 'Cancel' }).click();
  await expect(copy).toHaveCount(0);
  await expect(page.getByText('Copy of Harvest letter').first()).toBeVisible();
  expect(outside).toEqual([]);
});

test('autosave: an edit is saved by itself (Saving…, then Saved) and is there after a reload', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const email = await signUp(page);
  const id = await createDraft(page, email, 'Orchard');
  await page.goto('/campaigns');
  await page.getByRole('button', { name: 'Edit Orchard' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit Campaign' });
  await expect(editor.getByText('All changes saved')).toBeVisible();
  await editor.getByRole('tab', { name: 'Settings' }).click();
  await editor.getByLabel('Campaign name').fill('Orchard autumn');
  await expect(editor.getByText('Unsaved changes')).toBeVisible();
  // Nothing pressed: the draft saves itself once the typing rests.
  await expect(editor.getByText('All changes saved')).toBeVisible();
  await expect(editor).toBeVisible();

  await page.reload();
  await page.getByRole('button', { name: 'Edit Orchard autumn' }).click();
  const reopened = page.getByRole('dialog', { name: 'Edit Campaign' });
  await reopened.getByRole('tab', { name: 'Settings' }).click();
  await expect(reopened.getByLabel('Campaign name')).toHaveValue('Orchard autumn');
  const saved = (await (await page.request.get(`/api/campaigns/${id}`)).json()) as { name: string };
  expect(saved.name).toBe('Orchard autumn');
});

test('own HTML: a code editor with highlighting, the preview beside it, the unsubscribe warning, saved and reopened', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page);
  await page.goto('/campaigns');
  await page.getByRole('button', { name: 'Templates' }).click();
  await page.getByRole('button', { name: 'Use the Your own HTML template' }).click();
  const editor = page.getByRole('dialog', { name: 'New Campaign' });
  await expect(editor).toBeVisible();
  const code = editor.getByTestId('html-code-editor');
  const content = code.locator('.cm-content');
  await expect(content).toContainText('Hello {{firstName|there}}!');
  // Highlighted: the tags and attributes are spans of their own.
  await expect.poll(() => content.locator('.cm-line span').count()).toBeGreaterThan(10);
  await expect(editor.getByRole('tab', { name: 'Design' })).toHaveCount(0);
  const checklist = editor.getByRole('list', { name: 'Pre-send checklist' });
  await expect(checklist.locator('[data-check="unsubscribe"]')).toHaveAttribute('data-status', 'ok');

  // New HTML without {{unsubscribe}}: a warning (our footer will be added), and the preview follows.
  await content.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('<h1>Hi {{firstName|there}}</h1>\n<p>Our own words, in our own HTML.</p>');
  await expect(checklist.locator('[data-check="unsubscribe"]')).toHaveAttribute('data-status', 'warning');
  await expect(checklist.locator('[data-check="unsubscribe"]')).toContainText('no {{unsubscribe}} placeholder');
  const preview = page.frameLocator('iframe[title="Email preview (desktop)"]');
  await expect(preview.getByRole('heading', { name: 'Hi Ivy' })).toBeVisible();
  await expect(preview.getByText('Our own words, in our own HTML.')).toBeVisible();
  await expect(preview.getByRole('link', { name: /unsubscribe/i }).first()).toBeVisible();
  await checkScreen(page, 'html-editor');

  await editor.getByLabel('Campaign name').fill('Own HTML');
  await editor.getByLabel('Subject line').fill('Straight from the source');
  await editor.getByRole('button', { name: 'Save Draft' }).click();
  await expect(editor.getByText('All changes saved')).toBeVisible();
  await expect(editor).toBeVisible();
  const [listed] = (await (await page.request.get('/api/campaigns')).json()) as { id: number }[];
  const saved = (await (await page.request.get(`/api/campaigns/${listed?.id}`)).json()) as {
    blocks: unknown[];
    content: { html: string };
  };
  expect(saved.blocks).toEqual([]);
  expect(saved.content.html).toBe('<h1>Hi {{firstName|there}}</h1>\n<p>Our own words, in our own HTML.</p>');

  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit Own HTML' }).click();
  const reopened = page.getByRole('dialog', { name: 'Edit Campaign' });
  await expect(reopened.getByTestId('html-code-editor').locator('.cm-content')).toContainText(
    'Our own words, in our own HTML.',
  );
});
