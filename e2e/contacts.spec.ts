import { expect, test } from '@playwright/test';
import { checkScreen, pickOption, uniqueEmail } from './support.ts';

// A BOM, a quoted field with a comma, one bad email (row 4, counting the header as row 1) and five good rows.
const PEOPLE_CSV = [
  '\uFEFFEmail,FirstName,LastName,Company',
  'ada@example.com,Ada,Lovelace,"Analytical Engines, Ltd"',
  'grace@example.com,Grace,Hopper,US Navy',
  'not-an-email,Bad,Row,Nowhere',
  'alan@example.com,Alan,Turing,Bletchley Park',
  'katherine@example.com,Katherine,Johnson,NASA',
  'margaret@example.com,Margaret,Hamilton,MIT',
  '',
].join('\r\n');

test('contacts: import a CSV, search, detail, new contact, bulk add to list and delete, lists', async ({ page }) => {
  // Ten screens are checked with axe (and screenshotted four ways outside CI); longer than the default minute.
  test.setTimeout(180_000);
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('contacts'),
      password: 'contact-pass',
      confirmPassword: 'contact-pass',
      firstName: 'Ada',
      lastName: 'Byron',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);

  await page.goto('/contacts');
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Management' })).toBeVisible();
  await expect(page.getByText('No contacts yet')).toBeVisible();
  // No lists yet: the summary cards show no number, only a way to create the list.
  await expect(page.getByRole('button', { name: 'Create list VIP Customers' })).toBeVisible();
  await checkScreen(page, 'contacts-empty');

  // ── Import CSV ──────────────────────────────────────────────────────────────
  await page.getByRole('button', { name: 'Import CSV' }).first().click();
  const importDialog = page.getByRole('dialog', { name: 'Import CSV' });
  await importDialog.getByRole('button', { name: 'Import Contacts' }).click();
  await expect(importDialog.getByText('Please upload a CSV file first.')).toBeVisible();

  const fileInput = importDialog.getByLabel('CSV file');
  await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(importDialog.getByText('Please upload a CSV file.', { exact: true })).toBeVisible();

  await fileInput.setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(PEOPLE_CSV, 'utf8') });
  const preview = importDialog.getByRole('table', { name: 'First rows of the file' });
  await expect(preview).toBeVisible();
  for (const header of ['email', 'firstname', 'lastname', 'company']) {
    await expect(preview.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }
  await expect(preview.getByRole('cell', { name: 'Analytical Engines, Ltd' })).toBeVisible();
  await expect(preview.getByRole('row')).toHaveCount(6); // the header and the first 5 rows
  await expect(preview.getByText('margaret@example.com')).toHaveCount(0);

  await pickOption(importDialog, 'Add contacts to', 'Create new list');
  await importDialog.getByRole('button', { name: 'Import Contacts' }).click();
  await expect(importDialog.getByText('Please provide a name for the new contact list.')).toBeVisible();
  await importDialog.getByLabel('New list name').fill('Imported people');
  await checkScreen(page, 'contacts-import-preview');

  await importDialog.getByRole('button', { name: 'Import Contacts' }).click();
  const summary = importDialog.getByRole('region', { name: 'Import results' });
  await expect(summary).toBeVisible();
  await expect(page.getByText('Import complete')).toBeVisible();
  await expect(summary.getByRole('definition').nth(0)).toHaveText('5'); // imported
  await expect(summary.getByRole('definition').nth(1)).toHaveText('0'); // updated
  await expect(summary.getByRole('definition').nth(2)).toHaveText('1'); // skipped
  await expect(summary.getByText('Row 4: “not-an-email” is not a valid email address')).toBeVisible();
  await expect(summary.getByText('Contacts were added to the list “Imported people”.')).toBeVisible();
  // Spec §4: after a successful import the file and its preview are cleared.
  await expect(preview).toHaveCount(0);
  await expect(fileInput).toHaveValue('');
  await checkScreen(page, 'contacts-import-result');
  await importDialog.getByRole('button', { name: 'Done' }).click();
  await expect(importDialog).toBeHidden();

  const table = page.getByRole('table', { name: 'Contacts' });
  await expect(table.getByRole('button', { name: 'Ada Lovelace' })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(6); // header + 5 contacts
  await expect(page.getByText('Showing 1–5 of 5')).toBeVisible();
  await expect(table.getByText('Analytical Engines, Ltd')).toBeVisible();
  await expect(table.getByText('Active').first()).toBeVisible();

  // The summary card creates its list on request; it starts empty.
  await page.getByRole('button', { name: 'Create list VIP Customers' }).click();
  await expect(page.getByRole('button', { name: 'View contacts in VIP Customers' })).toBeVisible();
  await checkScreen(page, 'contacts-table');

  // ── Search (server side, debounced) ──────────────────────────────────────────
  const search = page.getByLabel('Search contacts');
  await search.fill('hopper');
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await expect(table.getByRole('button', { name: 'Grace Hopper' })).toBeVisible();
  await expect(table.getByRole('button', { name: 'Ada Lovelace' })).toHaveCount(0);
  await search.fill('nobody-matches-this');
  await expect(page.getByText('No contacts match your search')).toBeVisible();
  await checkScreen(page, 'contacts-no-match');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByText('Showing 1–5 of 5')).toBeVisible();

  // First-hour finding 10: contacts never mailed showed a red "0" engagement badge.
  await expect(table.getByText('New', { exact: true }).first()).toBeVisible();

  // ── Contact detail sheet ───────────────────────────────────────────────────
  await table.getByRole('button', { name: 'Ada Lovelace' }).click();
  const sheet = page.getByRole('dialog', { name: 'Ada Lovelace' });
  await expect(sheet).toBeVisible();
  await expect(sheet.getByText('ada@example.com')).toBeVisible();
  await expect(sheet.getByText('Analytical Engines, Ltd')).toBeVisible();
  await expect(sheet.getByText('Engagement score')).toBeVisible();
  await expect(sheet.getByText('New', { exact: true })).toBeVisible();
  await expect(sheet.getByRole('button', { name: 'Remove from Imported people' })).toBeVisible();
  // Its timeline: nothing yet for a new contact.
  await expect(sheet.getByRole('heading', { name: 'Timeline' })).toBeVisible();
  await expect(sheet.getByText('Nothing has happened with this contact yet.')).toBeVisible();
  await checkScreen(page, 'contacts-detail');
  await sheet.getByRole('button', { name: 'Edit' }).click();
  await sheet.getByLabel('Job title').fill('Mathematician');
  await sheet.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Contact updated')).toBeVisible();
  await expect(sheet.getByText('Mathematician')).toBeVisible();
  // (Escape would first dismiss the 'Contact updated' toast, the top-most layer.)
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toBeHidden();

  // ── New Contact (one validation error first) ─────────────────────────────────
  await page.getByRole('button', { name: 'New Contact' }).click();
  const newDialog = page.getByRole('dialog', { name: 'New Contact' });
  await newDialog.getByLabel('Email').fill('not-an-email');
  await newDialog.getByLabel('First name').fill('Hedy');
  await newDialog.getByRole('button', { name: 'Create Contact' }).click();
  await expect(newDialog.getByText('Please enter a valid email address')).toBeVisible();
  await expect(newDialog.getByText('Last name is required')).toBeVisible();
  await checkScreen(page, 'contacts-new-contact-errors');
  await newDialog.getByLabel('Email').fill('Hedy@Example.com');
  await newDialog.getByLabel('Last name').fill('Lamarr');
  await newDialog.getByLabel('Company').fill('Frequency Hopping Inc');
  await newDialog.getByLabel('Tags').fill('inventor, vip ,  ');
  await newDialog.getByRole('checkbox', { name: 'VIP Customers' }).click();
  await newDialog.getByRole('button', { name: 'Create Contact' }).click();
  await expect(page.getByText('Contact created')).toBeVisible();
  await expect(newDialog).toBeHidden();
  await expect(table.getByRole('button', { name: 'Hedy Lamarr' })).toBeVisible();
  await expect(table.getByText('hedy@example.com')).toBeVisible();
  await expect(table.getByText('inventor')).toBeVisible();
  await expect(page.getByText('Showing 1–6 of 6')).toBeVisible();

  // A second contact with the same email is refused with the server's message.
  await page.getByRole('button', { name: 'New Contact' }).click();
  await newDialog.getByLabel('Email').fill('hedy@example.com');
  await newDialog.getByLabel('First name').fill('Hedy');
  await newDialog.getByLabel('Last name').fill('Again');
  await newDialog.getByRole('button', { name: 'Create Contact' }).click();
  await expect(newDialog.getByText('A contact with this email already exists')).toBeVisible();
  await newDialog.getByRole('button', { name: 'Cancel' }).click();

  // ── Bulk: Add to List ───────────────────────────────────────────────────────
  await page.getByRole('checkbox', { name: 'Select ada@example.com' }).click();
  await page.getByRole('checkbox', { name: 'Select grace@example.com' }).click();
  const bulk = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bulk.getByText('2 contacts selected')).toBeVisible();
  await checkScreen(page, 'contacts-selected');
  await bulk.getByRole('button', { name: 'Add to List' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add to List' });
  await pickOption(addDialog, 'List', 'VIP Customers');
  await addDialog.getByRole('button', { name: 'Add to List' }).click();
  await expect(page.getByText('2 contacts added to “VIP Customers”.')).toBeVisible();
  await expect(addDialog).toBeHidden();
  await expect(bulk).toBeHidden();

  // ── Bulk: Delete, with the confirmation naming the count ───────────────────────
  await page.getByRole('checkbox', { name: 'Select alan@example.com' }).click();
  await page.getByRole('checkbox', { name: 'Select katherine@example.com' }).click();
  await bulk.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete 2 contacts?' });
  await expect(confirm).toBeVisible();
  await checkScreen(page, 'contacts-bulk-delete');
  await confirm.getByRole('button', { name: 'Delete 2 contacts' }).click();
  await expect(page.getByText('2 contacts deleted.')).toBeVisible();
  await expect(page.getByText('Showing 1–4 of 4')).toBeVisible();
  await expect(table.getByRole('button', { name: 'Alan Turing' })).toHaveCount(0);

  // ── Contact Lists tab: View Contacts filters the table ──────────────────────────
  await page.getByRole('tab', { name: 'Contact Lists' }).click();
  const vipCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'VIP Customers' }) });
  await expect(vipCard.getByText('3', { exact: true })).toBeVisible();
  const importedCard = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'Imported people' }) });
  await expect(importedCard.getByText('3', { exact: true })).toBeVisible();
  await checkScreen(page, 'contacts-lists');

  // Renaming a list to a name in use shows the server's message inline.
  await importedCard.getByRole('button', { name: 'Edit Imported people' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit List' });
  await editDialog.getByLabel('Name').fill('vip customers');
  await editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(editDialog.getByText('A contact list with this name already exists')).toBeVisible();
  await editDialog.getByLabel('Name').fill('Pioneers');
  await editDialog.getByLabel('Description').fill('Imported from people.csv');
  await editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(editDialog).toBeHidden();
  // The renamed list shows in the Contact Lists tab, and (first-hour finding 10) as a summary card too.
  const listsTab = page.getByRole('tabpanel', { name: 'Contact Lists' });
  await expect(listsTab.getByRole('heading', { name: 'Pioneers' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Pioneers' })).toBeVisible();
  await expect(listsTab.getByText('Imported from people.csv')).toBeVisible();

  await vipCard.getByRole('button', { name: 'View Contacts in VIP Customers' }).click();
  await expect(page.getByRole('tab', { name: 'All Contacts' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('List: VIP Customers')).toBeVisible();
  await expect(page.getByText('Showing 1–3 of 3')).toBeVisible();
  await expect(table.getByRole('button', { name: 'Hedy Lamarr' })).toBeVisible();
  await expect(table.getByRole('button', { name: 'Margaret Hamilton' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Remove the list filter VIP Customers' }).click();
  await expect(page.getByText('Showing 1–4 of 4')).toBeVisible();

  // ── Segments tab points to the segments page ────────────────────────────────────
  await page.getByRole('tab', { name: 'Segments' }).click();
  await expect(page.getByText('Segments live on the Contact Segments page')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open Contact Segments' })).toHaveAttribute('href', '/contact-segments');
});

// First-hour finding 9: bulk 'Send Campaign' made a "Selected contacts – …" list at once, left behind after Cancel.
test('bulk Send Campaign offers the selection in the editor; its list is made only when the campaign is saved', async ({
  page,
}) => {
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('contacts-send'),
      password: 'harbour-lantern-58',
      confirmPassword: 'harbour-lantern-58',
      firstName: 'Grace',
      lastName: 'Hopper',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  for (const [email, firstName] of [
    ['one@example.com', 'One'],
    ['two@example.com', 'Two'],
  ]) {
    const res = await page.request.post('/api/contacts', { data: { email, firstName, lastName: 'Person' } });
    expect(res.status()).toBe(201);
  }
  const listNames = async () =>
    ((await (await page.request.get('/api/contact-lists')).json()) as { name: string }[]).map((list) => list.name);
  const before = await listNames();

  const sendSelection = async () => {
    await page.goto('/contacts');
    await page.getByRole('checkbox', { name: 'Select all contacts on this page' }).click();
    const bulk = page.getByRole('region', { name: 'Bulk actions' });
    await expect(bulk.getByText('2 contacts selected')).toBeVisible();
    await bulk.getByRole('button', { name: 'Send Campaign' }).click();
    const editor = page.getByRole('dialog', { name: 'New Campaign' });
    await expect(editor).toBeVisible();
    await expect(page).toHaveURL(/\/campaigns$/);
    await expect(editor.getByRole('checkbox', { name: /Selected contacts/ })).toBeChecked();
    await expect(editor.locator('li[data-check="recipients"]')).toHaveAttribute('data-status', 'ok');
    return editor;
  };

  // Cancel: nothing was made.
  let editor = await sendSelection();
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);
  expect(await listNames()).toEqual(before);

  // Saved: the selection becomes a list of its own, and the campaign goes to it.
  editor = await sendSelection();
  await editor.getByLabel('Campaign name').fill('For the two');
  await editor.getByLabel('Subject line').fill('Hello both');
  await editor.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Campaign Saved').first()).toBeVisible();
  const lists = (await (await page.request.get('/api/contact-lists')).json()) as {
    id: number;
    name: string;
    subscriberCount: number;
  }[];
  const created = lists.filter((list) => list.name.startsWith('Selected contacts – '));
  expect(created).toHaveLength(1);
  expect(created[0]?.subscriberCount).toBe(2);
  const campaigns = (await (await page.request.get('/api/campaigns')).json()) as { id: number; name: string }[];
  const saved = campaigns.find((campaign) => campaign.name === 'For the two');
  const detail = (await (await page.request.get(`/api/campaigns/${saved?.id}`)).json()) as { listIds: number[] };
  expect(detail.listIds).toEqual([created[0]?.id]);
});

test('an import after the session ended follows the Unauthorized rule', async ({ page }) => {
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('contacts-401'),
      password: 'contact-pass',
      confirmPassword: 'contact-pass',
      firstName: 'Katherine',
      lastName: 'Johnson',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  await page.goto('/contacts');
  await page.getByRole('button', { name: 'Import CSV' }).first().click();
  const importDialog = page.getByRole('dialog', { name: 'Import CSV' });
  await importDialog.getByLabel('CSV file').setInputFiles({
    name: 'people.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('email\nsomeone@example.com\n'),
  });
  await expect(importDialog.getByRole('columnheader', { name: 'email' })).toBeVisible();
  await page.context().clearCookies();
  await importDialog.getByRole('button', { name: 'Import Contacts' }).click();
  await expect(page.getByText('You are logged out. Logging in again...')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
});
