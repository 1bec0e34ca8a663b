import { writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { dnsRecordsFile } from './global-setup.ts';
import { checkScreen, confirmAccountEmail, uniqueEmail } from './support.ts';

// Issue 22, "the first hour of a new user": what a new account trips on before its first send.

const PASSWORD = 'marigold-harbour-41';

async function signUp(page: Page, prefix: string): Promise<string> {
  const email = uniqueEmail(prefix);
  const signup = await page.request.post('/api/auth/signup', {
    data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Fern', lastName: 'Early', plan: 'pro' },
  });
  expect(signup.status()).toBe(201);
  return email;
}

async function importContacts(page: Page, listName: string, emails: string[]): Promise<number> {
  const csvData = ['email,firstName', ...emails.map((email, i) => `${email},Friend${i}`), ''].join('\n');
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: { csvData, createNewList: true, newListName: listName },
  });
  expect(imported.ok(), await imported.text()).toBe(true);
  return ((await imported.json()) as { listId: number }).listId;
}

/** Adds a domain and publishes its records on the local DNS server, so it verifies. */
async function verifiedDomain(page: Page, name: string): Promise<void> {
  const added = await page.request.post('/api/domains', { data: { domain: name } });
  expect(added.status()).toBe(201);
  const domain = (await added.json()) as { id: number; records: Array<{ host: string; value: string }> };
  writeFileSync(dnsRecordsFile(), JSON.stringify(Object.fromEntries(domain.records.map((r) => [r.host, [r.value]]))));
  const verify = await page.request.post(`/api/domains/${domain.id}/verify`);
  expect(((await verify.json()) as { isVerified: boolean }).isVerified).toBe(true);
}

// Finding 1: the postal-address rule appeared only after 'Send Now' was confirmed, as a toast.
test('first hour: the pre-send checklist blocks Send and Schedule with the reason, each item links to its fix', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUp(page, 'presend');
  await confirmAccountEmail(page);
  await importContacts(page, 'Garden club', ['ann@garden.test', 'bob@garden.test']);
  await page.request.post('/api/contact-lists', { data: { name: 'Nobody yet' } });

  await page.goto('/campaigns?new=1');
  const editor = page.getByRole('dialog', { name: 'New Campaign' });
  const checklist = editor.getByRole('region', { name: 'Before you send' });
  await expect(checklist).toBeVisible();
  const item = (id: string) => checklist.locator(`li[data-check="${id}"]`);

  // A new account with the starter template: nothing chosen, no postal address, no subject, placeholder links.
  await expect(item('recipients')).toHaveAttribute('data-status', 'blocked');
  await expect(item('sender')).toHaveAttribute('data-status', 'ok');
  await expect(item('postal-address')).toHaveAttribute('data-status', 'blocked');
  await expect(item('subject')).toHaveAttribute('data-status', 'blocked');
  await expect(item('links')).toHaveAttribute('data-status', 'blocked');
  await expect(item('links')).toContainText('example.com/spring-sale');
  await expect(item('unsubscribe')).toHaveAttribute('data-status', 'ok');
  await expect(checklist.getByText('4 things need fixing before you can send or schedule.')).toBeVisible();

  const send = editor.getByRole('button', { name: 'Send Campaign' });
  const schedule = editor.getByRole('button', { name: 'Schedule Later' });
  await expect(send).toBeDisabled();
  await expect(schedule).toBeDisabled();
  await expect(editor.locator('#send-blocked-reason')).toContainText('Can’t send yet — Recipients: No list or segment');
  await expect(send).toHaveAttribute('aria-describedby', 'send-blocked-reason');
  await expect(schedule).toHaveAttribute('aria-describedby', 'send-blocked-reason');
  await checkScreen(page, 'editor-pre-send-checklist');

  // Recipients: an empty list is not enough; "Choose recipients" leads to the lists.
  await item('recipients').getByRole('button', { name: 'Choose recipients' }).click();
  await expect(editor.getByRole('checkbox', { name: /Garden club/ })).toBeFocused();
  await editor.getByRole('checkbox', { name: /Nobody yet/ }).check();
  await expect(item('recipients')).toContainText('have no subscribed contacts');
  await expect(item('recipients').getByRole('link', { name: /Add contacts/ })).toHaveAttribute('href', '/contacts');
  await editor.getByRole('checkbox', { name: /Garden club/ }).check();
  await expect(item('recipients')).toHaveAttribute('data-status', 'ok');

  // Subject: the fix focuses the field.
  await item('subject').getByRole('button', { name: 'Write a subject' }).click();
  await expect(editor.getByLabel('Subject line')).toBeFocused();
  await page.keyboard.type('Spring is here');
  await editor.getByLabel('Campaign name').fill('Spring hello');
  await expect(item('subject')).toHaveAttribute('data-status', 'ok');

  // Links: the fix opens the button's panel; a real link clears it.
  await item('links').getByRole('button', { name: 'Fix the link' }).click();
  await expect(editor.getByRole('tab', { name: 'Design', selected: true })).toBeVisible();
  await editor.getByLabel('Button link').fill('https://garden-club.test/spring');
  await editor.getByRole('tab', { name: 'Settings' }).click();
  await expect(item('links')).toHaveAttribute('data-status', 'ok');

  // Postal address: typed in place, the editor (and its draft) stays open.
  await expect(send).toBeDisabled();
  await expect(editor.locator('#send-blocked-reason')).toContainText('Postal address');
  await item('postal-address').getByLabel('Postal address').fill('1 Garden Lane, Springfield');
  await item('postal-address').getByRole('button', { name: 'Save' }).click();
  await expect(item('postal-address')).toHaveAttribute('data-status', 'ok');
  await expect(checklist.getByText('Everything is ready to send.')).toBeVisible();
  await expect(editor.locator('#send-blocked-reason')).toHaveCount(0);
  await expect(send).toBeEnabled();
  await expect(schedule).toBeEnabled();
  const user = (await (await page.request.get('/api/auth/user')).json()) as { postalAddress: string };
  expect(user.postalAddress).toBe('1 Garden Lane, Springfield');

  await send.click();
  const confirm = page.getByRole('alertdialog', { name: 'Send to 2 recipients?' });
  await confirm.getByRole('button', { name: 'Send Now' }).click();
  await expect(page.getByText('Campaign Sending').first()).toBeVisible();
  await expect(editor).toHaveCount(0);
});

test('first hour: the dashboard’s getting-started checklist follows real data and goes away when done', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const email = await signUp(page, 'setup');
  await confirmAccountEmail(page);

  await page.goto('/');
  const card = page.getByRole('heading', { name: 'Get started' }).locator('xpath=ancestor::*[@data-slot="card"]');
  await expect(card).toBeVisible();
  await expect(card.getByText('0 of 4 done.')).toBeVisible();
  for (const step of ['domain', 'contacts', 'postal-address', 'first-campaign'])
    await expect(card.locator(`li[data-step="${step}"]`)).toContainText('(to do)');
  await expect(card.getByRole('link', { name: 'Open your profile' })).toHaveAttribute('href', '/profile');
  await checkScreen(page, 'dashboard-getting-started');

  // Each step ticks from the account's own data.
  const listId = await importContacts(page, 'Neighbours', ['cy@street.test']);
  await page.request.patch('/api/auth/user', { data: { postalAddress: '2 Elm Row, Springfield' } });
  await page.reload();
  await expect(card.getByText('2 of 4 done.')).toBeVisible();
  await expect(card.locator('li[data-step="contacts"]')).toContainText('(done)');
  await expect(card.locator('li[data-step="postal-address"]')).toContainText('(done)');

  await verifiedDomain(page, `setup-${Date.now()}.test`);
  const created = await page.request.post('/api/campaigns', {
    data: { name: 'First', subject: 'Hi', fromEmail: email, content: { html: '<p>Hi</p>' }, listIds: [listId] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  await page.reload();
  await expect(card.getByText('3 of 4 done.')).toBeVisible();
  const sent = await page.request.patch(`/api/campaigns/${id}`, { data: { status: 'sent' } });
  expect(sent.ok(), await sent.text()).toBe(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Recent Campaigns' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Get started' })).toHaveCount(0);
});

/** The open pixel and first tracked link of the Outbox message to `to` (read from its raw source, quoted-printable undone). */
async function trackingUrls(page: Page, subject: string, to: string): Promise<{ open: string; click: string }> {
  let found: { open: string; click: string } | undefined;
  await expect
    .poll(async () => {
      const list = await page.request.get(`/api/outbox?search=${encodeURIComponent(to)}`);
      const { messages } = (await list.json()) as { messages: { id: number; subject: string }[] };
      const message = messages.find((m) => m.subject === subject);
      if (!message) return false;
      const detail = (await (await page.request.get(`/api/outbox/${message.id}`)).json()) as { raw: string };
      const source = detail.raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
      const open = /\/t\/o\/[\w.-]+/.exec(source)?.[0];
      const click = /\/t\/c\/[\w.-]+(?:\/\d+)?/.exec(source)?.[0];
      if (open && click) found = { open, click };
      return found !== undefined;
    })
    .toBe(true);
  return found ?? { open: '', click: '' };
}

// Finding 2: after opens and clicks the Campaigns list and Recent Campaigns showed 0.0% until a reload.
test('first hour: opens and clicks appear on the Campaigns list, the dashboard and the report without a reload', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = await signUp(page, 'live');
  await confirmAccountEmail(page);
  await page.request.patch('/api/auth/user', { data: { postalAddress: '3 Orchard Way, Springfield' } });
  const listId = await importContacts(page, 'Orchard', ['pear@orchard.test', 'plum@orchard.test']);
  const subject = `Orchard news ${Date.now()}`;
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Orchard news',
      subject,
      fromEmail: email,
      content: { html: '' },
      blocks: [
        { id: 'intro', type: 'text', content: { text: 'Fresh fruit is in.', tag: 'p' } },
        { id: 'cta', type: 'button', content: { text: 'See the harvest', url: 'https://orchard.test/harvest' } },
      ],
      listIds: [listId],
      status: 'sent',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const pear = await trackingUrls(page, subject, 'pear@orchard.test');
  const plum = await trackingUrls(page, subject, 'plum@orchard.test');

  // The Campaigns list, left open: the first open shows up on its own.
  await page.goto('/campaigns');
  const row = page.getByRole('row', { name: /Orchard news/ });
  await expect(row.getByText('sent', { exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: '0.0%' }).first()).toBeVisible();
  expect((await page.request.get(pear.open)).status()).toBe(200);
  await expect(row.getByRole('cell', { name: '50.0%' }).first()).toBeVisible({ timeout: 25_000 });

  // The dashboard, left open: Recent Campaigns and the Open Rate card move together.
  await page.goto('/');
  const recent = page
    .locator('[data-slot="card"]')
    .filter({ has: page.getByRole('heading', { name: 'Recent Campaigns' }) });
  await expect(recent.getByText('50.0%').first()).toBeVisible();
  expect((await page.request.get(plum.open)).status()).toBe(200);
  await expect(recent.getByText('100.0%').first()).toBeVisible({ timeout: 25_000 });
  const openCard = page.locator('[data-slot="card"]').filter({ hasText: 'Open Rate' }).first();
  await expect(openCard.getByText('100.0%')).toBeVisible({ timeout: 25_000 });

  // The report, left open: a click arrives.
  await page.goto(`/campaigns/${id}/report`);
  const card = (title: string) =>
    page.locator('[data-slot="card"]').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  await expect(card('Unique Clicks').getByText('0', { exact: true })).toBeVisible();
  const clicked = await page.request.get(pear.click, { maxRedirects: 0 });
  expect(clicked.status()).toBe(302);
  await expect(card('Unique Clicks').getByText('1', { exact: true })).toBeVisible({ timeout: 25_000 });
});

// Finding 2, second half: a sending campaign's progress did not move. The server sends three mails in
// well under the 3 s poll, so the campaign's own answer is replayed as it is part-way through (1, then
// 2 of 3 sent) before the real one ("sent"): the report, left open, must follow all three on its own.
test('first hour: a sending campaign’s progress moves on its report without a reload, to sent', async ({ page }) => {
  test.setTimeout(150_000);
  const email = await signUp(page, 'progress');
  await confirmAccountEmail(page);
  await page.request.patch('/api/auth/user', { data: { postalAddress: '6 Mill Road, Springfield' } });
  const listId = await importContacts(page, 'Mill', ['a@mill.test', 'b@mill.test', 'c@mill.test']);
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Mill news',
      subject: 'The mill turns',
      fromEmail: email,
      content: { html: '' },
      blocks: [{ id: 't', type: 'text', content: { text: 'Flour is in.', tag: 'p' } }],
      listIds: [listId],
      status: 'sent',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  await expect
    .poll(async () => ((await (await page.request.get(`/api/campaigns/${id}`)).json()) as { status: string }).status)
    .toBe('sent');

  let reads = 0;
  await page.route(
    (url) => url.pathname === `/api/campaigns/${id}`,
    async (route) => {
      const response = await route.fetch();
      reads += 1;
      // 1 of 3 once, 2 of 3 twice (long enough to check the screen), then the real answer.
      if (reads > 3) return route.fulfill({ response });
      const real = (await response.json()) as Record<string, unknown>;
      const totalSent = Math.min(reads, 2);
      return route.fulfill({ response, json: { ...real, status: 'sending', totalSent, totalRecipients: 3 } });
    },
  );
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations += 1;
  });
  await page.goto(`/campaigns/${id}/report`);
  const progress = page.getByRole('progressbar', { name: 'Sending progress' });
  await expect(page.getByText('1 of 3 sent')).toBeVisible();
  await expect(progress).toBeVisible();
  await expect(page.getByText('2 of 3 sent')).toBeVisible({ timeout: 10_000 });
  await checkScreen(page, 'report-sending-progress');
  await expect(page.getByText('sent', { exact: true }).first()).toBeVisible({ timeout: 10_000 });
  await expect(progress).toHaveCount(0);
  expect(navigations).toBe(1);
});

/** True when `inner` lies wholly inside the window. */
async function insideViewport(page: Page, box: { x: number; y: number; width: number; height: number } | null) {
  const size = page.viewportSize();
  return (
    box !== null &&
    size !== null &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= size.width + 0.5 &&
    box.y + box.height <= size.height + 0.5
  );
}

// Finding 4: a long campaign name pushed the confirmation's buttons off screen; toasts covered the action bar.
test('first hour: long names keep confirmation buttons on screen; toasts stay off the editor action bar', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const email = await signUp(page, 'longname');
  await confirmAccountEmail(page);
  const listId = await importContacts(page, 'Long list', ['long@names.test']);
  const longName = `Spring${'Bloom'.repeat(38)}`; // 196 characters, no space to break at
  const created = await page.request.post('/api/campaigns', {
    data: { name: longName, subject: 'Hi', fromEmail: email, content: { html: '<p>Hi</p>' }, listIds: [listId] },
  });
  expect(created.status(), await created.text()).toBe(201);

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto('/campaigns');
    await page
      .getByRole('button', { name: `Delete ${longName}` })
      .filter({ visible: true })
      .first()
      .click();
    const confirmDelete = page.getByRole('alertdialog', { name: 'Delete this draft?' });
    await expect(confirmDelete).toBeVisible();
    await expect(confirmDelete.getByText(longName)).toBeVisible();
    for (const name of ['Cancel', 'Delete'])
      expect(await insideViewport(page, await confirmDelete.getByRole('button', { name }).boundingBox())).toBe(true);
    expect(await insideViewport(page, await confirmDelete.boundingBox())).toBe(true);
    await confirmDelete.getByRole('button', { name: 'Cancel' }).click();

    await page
      .getByRole('button', { name: `Send ${longName}` })
      .filter({ visible: true })
      .first()
      .click();
    const confirmSend = page.getByRole('alertdialog');
    await expect(confirmSend.getByRole('button', { name: 'Cancel' })).toBeVisible();
    expect(await insideViewport(page, await confirmSend.getByRole('button', { name: 'Cancel' }).boundingBox())).toBe(
      true,
    );
    expect(await insideViewport(page, await confirmSend.boundingBox())).toBe(true);
    await confirmSend.getByRole('button', { name: 'Cancel' }).click();
  }
  await screenshotDialog(page, longName);

  // An error toast in the editor stands above its action bar, not over Send Campaign.
  await page.goto('/campaigns?new=1');
  const editor = page.getByRole('dialog', { name: 'New Campaign' });
  await editor.getByRole('button', { name: 'Save Draft' }).click();
  // The modal editor hides the rest of the page from the accessibility tree, so the toast is found by its place.
  const toast = page.locator('ol > li', { hasText: 'Campaign name is required' }).first();
  await expect(toast).toBeVisible();
  await page.waitForTimeout(400); // the toast slides in
  const toastBox = await toast.boundingBox();
  const barBox = await editor.getByRole('button', { name: 'Send Campaign' }).boundingBox();
  expect(toastBox && barBox && toastBox.y + toastBox.height <= barBox.y).toBe(true);
});

async function screenshotDialog(page: Page, longName: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page
    .getByRole('button', { name: `Delete ${longName}` })
    .filter({ visible: true })
    .first()
    .click();
  await page.screenshot({ path: 'test-results/screens/long-name-confirm-phone.png' });
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The elements wider than the window (their tag, class and right edge), for a failing width check. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .slice(0, 8)
      .map(
        (element) => `${element.tagName}.${element.className} → ${Math.round(element.getBoundingClientRect().right)}`,
      );
  });
}

// Finding 8: at 390 px the report overflowed (436 px), Contacts scrolled sideways, stat cards stacked one per row.
test('first hour: phone width — the report fits, Contacts are cards, stat cards two per row', async ({ page }) => {
  test.setTimeout(150_000);
  const email = await signUp(page, 'phone');
  await confirmAccountEmail(page);
  await page.request.patch('/api/auth/user', { data: { postalAddress: '4 Quay Street, Springfield' } });
  const listId = await importContacts(page, 'Harbour newsletter subscribers', [
    'a.very.long.address.for.a.phone@harbour-newsletter.test',
    'sailor@harbour.test',
  ]);
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Harbour news for the whole summer season',
      subject: 'The harbour is open all summer long, with boats and music every weekend',
      fromEmail: email,
      content: { html: '' },
      blocks: [
        { id: 't', type: 'text', content: { text: 'Boats and music.', tag: 'p' } },
        {
          id: 'b',
          type: 'button',
          content: { text: 'See the timetable', url: 'https://harbour.test/summer/timetable/boats-and-music' },
        },
      ],
      listIds: [listId],
      status: 'sent',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  // Activity draws the chart and the links table (with its long URL), where the overflow was.
  const sailor = await trackingUrls(
    page,
    'The harbour is open all summer long, with boats and music every weekend',
    'sailor@harbour.test',
  );
  await page.request.get(sailor.open);
  await page.request.get(sailor.click, { maxRedirects: 0 });
  await page.setViewportSize({ width: 390, height: 844 });

  await page.goto(`/campaigns/${id}/report`);
  await expect(page.getByRole('heading', { level: 1, name: 'Harbour news for the whole summer season' })).toBeVisible();
  await expect(page.getByText('sent', { exact: true }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(await overflowing(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/screens/report-phone-width.png', fullPage: true });

  await page.goto('/');
  // Both cards' tops are read in one frame, and again until the page has settled: read one at a
  // time while the dashboard was still loading, they came from two layouts (CI once, a retry).
  const cardTitles = ['Total Subscribers', 'Open Rate'];
  const cardsShareARow = () =>
    page.evaluate((titles) => {
      const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')];
      const tops = titles.map(
        (title) => headings.find((heading) => heading.textContent?.trim() === title)?.getBoundingClientRect().top,
      );
      const [first, second] = tops;
      return first !== undefined && second !== undefined && Math.abs(first - second) < 2;
    }, cardTitles);
  await expect.poll(cardsShareARow).toBe(true);
  expect(await overflowing(page)).toEqual([]);
  // A narrower phone (and another machine's fonts) once pushed the Revenue card's button 2 px past the edge.
  await page.setViewportSize({ width: 340, height: 844 });
  await expect(page.getByRole('button', { name: 'Record a purchase' })).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/screens/dashboard-narrow-phone.png' });
  await page.setViewportSize({ width: 390, height: 844 });

  await page.goto('/contacts');
  // Finding 10: the summary cards show the user's own list, whatever it is named.
  await expect(page.getByRole('heading', { level: 2, name: 'Harbour newsletter subscribers' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'View contacts in Harbour newsletter subscribers' })).toBeVisible();
  const cards = page.getByRole('list', { name: 'Contacts' });
  await expect(cards).toBeVisible();
  await expect(cards.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('table', { name: 'Contacts' })).toBeHidden();
  await expect(cards.getByText('a.very.long.address.for.a.phone@harbour-newsletter.test')).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  // Selecting works from the cards as from the table.
  await page.getByRole('checkbox', { name: 'Select all contacts on this page' }).click();
  await expect(page.getByRole('region', { name: 'Bulk actions' }).getByText('2 contacts selected')).toBeVisible();
  await checkScreen(page, 'contacts-phone-cards');
});

// Finding 5: Mailchimp's quoted tags kept their quotes; ignored columns went unmentioned; code names in skip reasons.
test('first hour: importing a Mailchimp export — columns matched and changeable, tags unquoted, a tag for all, skipped rows to download', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signUp(page, 'mailchimp');
  const csv = [
    'Email Address,First Name,Last Name,Phone Number,MEMBER_RATING,Favourite flower,TAGS',
    'rose@petals.test,Rose,Petal,555-0101,4,Tulip,"""Customers"",""VIP"""',
    'not-an-address,Bad,Row,,1,Daisy,',
    'iris@petals.test,Iris,Stem,555-0102,2,Iris,"""Customers"""',
    '',
  ].join('\n');

  await page.goto('/contacts');
  await page.getByRole('button', { name: 'Import CSV' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Import CSV' });
  await expect(
    dialog.getByText(/Other columns are matched to first name, last name, a full name, company/),
  ).toBeVisible();
  await dialog
    .getByLabel('CSV file')
    .setInputFiles({ name: 'mailchimp.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

  const mapping = dialog.getByRole('list', { name: 'Column mapping' });
  await expect(mapping).toBeVisible();
  const fieldOf = (column: string) => mapping.getByRole('combobox', { name: `Field for column ${column}` });
  await expect(fieldOf('Email Address')).toHaveText('Email');
  await expect(fieldOf('First Name')).toHaveText('First name');
  await expect(fieldOf('Phone Number')).toHaveText('Phone');
  await expect(fieldOf('TAGS')).toHaveText('Tags');
  await expect(fieldOf('MEMBER_RATING')).toHaveText('Ignore this column');
  await expect(fieldOf('Favourite flower')).toHaveText('Ignore this column');
  // The user keeps the favourite flower, in Notes.
  await fieldOf('Favourite flower').click();
  await page.getByRole('option', { name: 'Notes' }).click();
  await expect(fieldOf('Favourite flower')).toHaveText('Notes');
  await dialog.getByLabel(/Tag everyone in this import/).fill('spring fair');
  await checkScreen(page, 'import-column-mapping');

  await dialog.getByRole('button', { name: 'Import Contacts' }).click();
  const summary = dialog.getByRole('region', { name: 'Import results' });
  await expect(summary).toBeVisible();
  await expect(summary.getByTestId('ignored-columns')).toHaveText('Not imported: the column “MEMBER_RATING”.');
  await expect(summary.getByText('Row 3: “not-an-address” is not a valid email address')).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    summary.getByRole('button', { name: 'Download skipped rows (CSV)' }).click(),
  ]);
  const stream = await download.createReadStream();
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  expect(text.trim().split(/\r?\n/)).toEqual([
    'Email Address,First Name,Last Name,Phone Number,MEMBER_RATING,Favourite flower,TAGS,Why it was skipped',
    'not-an-address,Bad,Row,,1,Daisy,,“not-an-address” is not a valid email address',
  ]);

  const contacts = (await (await page.request.get('/api/contacts?search=petals.test')).json()) as {
    email: string;
    tags: string[];
    id: number;
  }[];
  const rose = contacts.find((contact) => contact.email === 'rose@petals.test');
  expect(rose?.tags).toEqual(['Customers', 'VIP', 'spring fair']);
  const detail = (await (await page.request.get(`/api/contacts/${rose?.id}`)).json()) as { notes: string };
  expect(detail.notes).toBe('Tulip');
});

/** The reset link in the newest "Reset your Sendwell password" mail to `to` (caught in its account's Outbox). */
async function resetLinkFor(page: Page, to: string): Promise<string> {
  let link = '';
  await expect
    .poll(async () => {
      const list = await page.request.get(`/api/outbox?search=${encodeURIComponent(to)}`);
      const { messages } = (await list.json()) as { messages: { id: number; subject: string }[] };
      const message = messages.find((m) => m.subject === 'Reset your Sendwell password');
      if (!message) return '';
      const detail = (await (await page.request.get(`/api/outbox/${message.id}`)).json()) as { text: string | null };
      link = /https?:\/\/\S+\/reset-password\?token=[\w.-]+/.exec(detail.text ?? '')?.[0] ?? '';
      return link;
    })
    .toBeTruthy();
  return link;
}

// Issue 22 build item: a self-service password reset by mailed link, beside the admin command.
test('first hour: forgot password — a mailed link sets a new password once; the answer is the same for any address', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const email = await signUp(page, 'forgot');
  // Someone else's browser (signed out) asks for the link.
  const visitor = await browser.newContext();
  const other = await visitor.newPage();
  await other.goto('/login');
  await other.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(other).toHaveURL(/\/forgot-password$/);
  await other.getByLabel('Email').fill('nobody-at-all@e2e.test');
  await other.getByRole('button', { name: 'Email me a link' }).click();
  const answer = other.getByRole('status');
  await expect(answer).toContainText('If an account uses this address, we have emailed it a link');
  const unknownAnswer = await answer.textContent();

  await other.goto('/forgot-password');
  await other.getByLabel('Email').fill(email);
  await other.getByRole('button', { name: 'Email me a link' }).click();
  await expect(other.getByRole('status')).toHaveText(unknownAnswer ?? '');
  await checkScreen(other, 'forgot-password-sent');

  // The mail reaches the account (its Outbox, read with the owner's session).
  const link = await resetLinkFor(page, email);
  await other.goto(link);
  await expect(other.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await other.getByLabel('New password', { exact: true }).fill('saffron-lighthouse-64');
  await other.getByLabel('Confirm new password').fill('saffron-lighthouse-64');
  await other.getByRole('button', { name: 'Set new password' }).click();
  await expect(other.getByRole('heading', { name: 'Password changed' })).toBeVisible();

  // The owner's old session ended; the new password signs in.
  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/login/);
  await other.getByRole('link', { name: 'Sign in' }).click();
  await other.getByLabel('Email').fill(email);
  await other.getByLabel('Password').fill('saffron-lighthouse-64');
  await other.getByRole('button', { name: 'Sign In' }).click();
  await expect(other.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await other.context().clearCookies();

  // The link works once.
  await other.goto(link);
  await other.getByLabel('New password', { exact: true }).fill('another-lighthouse-65');
  await other.getByLabel('Confirm new password').fill('another-lighthouse-65');
  await other.getByRole('button', { name: 'Set new password' }).click();
  await expect(other.getByRole('alert')).toContainText('This link has expired or was already used.');
  await expect(other.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  await visitor.close();
});

// Finding 10: signing in again after the session ended lost the page you were on.
test('first hour: signing in again returns to the page the session ended on', async ({ page }) => {
  const email = await signUp(page, 'return');
  await page.goto('/domain-settings?tab=senders');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.context().clearCookies();
  await page.reload();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/domain-settings\?tab=senders$/);
  // Once used, the next sign-in goes to the dashboard as usual (the session ends on the dashboard this time).
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});

// Finding 10: 'Update preferences' opened the same page as Unsubscribe.
test('first hour: the preferences page lists the lists and leaves one, beside unsubscribe from all', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const email = await signUp(page, 'prefs');
  await confirmAccountEmail(page);
  await page.request.patch('/api/auth/user', { data: { postalAddress: '5 Meadow Lane, Springfield' } });
  const news = await importContacts(page, 'Meadow news', ['reader@meadow.test']);
  await importContacts(page, 'Seed swaps', ['reader@meadow.test']);
  const subject = `Meadow news ${Date.now()}`;
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Meadow news',
      subject,
      fromEmail: email,
      content: { html: '' },
      blocks: [{ id: 't', type: 'text', content: { text: 'The meadow is in bloom.', tag: 'p' } }],
      listIds: [news],
      status: 'sent',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  let preferences = '';
  await expect
    .poll(async () => {
      const list = await page.request.get('/api/outbox?search=reader%40meadow.test');
      const { messages } = (await list.json()) as { messages: { id: number; subject: string }[] };
      const message = messages.find((m) => m.subject === subject);
      if (!message) return '';
      const detail = (await (await page.request.get(`/api/outbox/${message.id}`)).json()) as { raw: string };
      const source = detail.raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
      preferences = /https?:\/\/[^\s"]+\/u\/[\w.-]+\?preferences=1/.exec(source)?.[0] ?? '';
      return preferences;
    })
    .toBeTruthy();

  // The reader's browser, not signed in.
  const reader = await browser.newContext();
  const tab = await reader.newPage();
  await tab.goto(preferences);
  await expect(tab.getByRole('heading', { level: 1, name: 'Email preferences' })).toBeVisible();
  await expect(tab.getByRole('heading', { level: 2, name: 'Your lists' })).toBeVisible();
  await expect(tab.getByText('Meadow news', { exact: true })).toBeVisible();
  await expect(tab.getByText('Seed swaps', { exact: true })).toBeVisible();
  await expect(tab.getByRole('button', { name: 'Unsubscribe from all emails' })).toBeVisible();
  await tab.getByRole('button', { name: 'Leave Seed swaps' }).click();
  await expect(tab.getByText('You left the list. You still get the other lists’ emails.')).toBeVisible();
  await expect(tab.getByText('Seed swaps', { exact: true })).toHaveCount(0);
  await expect(tab.getByText('Meadow news', { exact: true })).toBeVisible();
  await expect(tab.getByText('Subscribed', { exact: true })).toBeVisible();
  await reader.close();

  const lists = (await (await page.request.get('/api/contact-lists')).json()) as {
    name: string;
    subscriberCount: number;
  }[];
  expect(lists.find((list) => list.name === 'Seed swaps')?.subscriberCount).toBe(0);
  expect(lists.find((list) => list.name === 'Meadow news')?.subscriberCount).toBe(1);
});

// Finding 10: the Outbox's Headers tab showed a non-ASCII subject as RFC 2047 encoded words.
test('first hour: the Outbox’s Headers tab shows a non-ASCII subject as written, not encoded', async ({ page }) => {
  test.setTimeout(120_000);
  const email = await signUp(page, 'headers');
  await confirmAccountEmail(page);
  const subject = `Grüße aus Köln — the café’s spring menu 🌷 ${Date.now()}`;
  const created = await page.request.post('/api/campaigns', {
    data: {
      name: 'Köln menu',
      subject,
      fromEmail: email,
      content: { html: '' },
      blocks: [{ id: 't', type: 'text', content: { text: 'Frühling ist da.', tag: 'p' } }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const tested = await page.request.post(`/api/campaigns/${id}/test`, { data: { emails: [email] } });
  expect(tested.ok(), await tested.text()).toBe(true);

  await page.goto(`/outbox?q=${encodeURIComponent(email)}`);
  await page.getByRole('link', { name: new RegExp(`Grüße aus Köln.*${subject.slice(-13)}`) }).click();
  await page.getByRole('tab', { name: 'Headers' }).click();
  const headers = page.getByLabel('Message headers');
  await expect(headers).toContainText(subject);
  await expect(headers).not.toContainText('=?UTF-8?');
  await page.getByRole('tab', { name: 'Source' }).click();
  // The source stays the message as sent: there the subject is encoded, as it must be on the wire.
  await expect(page.getByLabel('Raw message source')).toContainText('=?UTF-8?');
  await page.getByRole('tab', { name: 'Headers' }).click();
  await checkScreen(page, 'outbox-headers-non-ascii');
});
