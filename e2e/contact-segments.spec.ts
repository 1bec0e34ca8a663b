import { expect, test, type Page } from '@playwright/test';
import { checkScreen, pickOption, screenshot, uniqueEmail } from './support.ts';

const people = [
  {
    email: 'ana@acme.test',
    firstName: 'Ana',
    lastName: 'Alvarez',
    jobTitle: 'Software Engineer',
    location: 'Austin, USA',
    company: 'Acme',
  },
  {
    email: 'ben@maple.test',
    firstName: 'Ben',
    lastName: 'Brown',
    jobTitle: 'Sales Lead',
    location: 'Toronto, Canada',
    company: 'Maple Co',
  },
  {
    email: 'carla@bauhaus.test',
    firstName: 'Carla',
    lastName: 'Christ',
    jobTitle: 'Senior Developer',
    location: 'Berlin, Germany',
    company: 'Bauhaus GmbH',
  },
  {
    email: 'diego@sol.test',
    firstName: 'Diego',
    lastName: 'Diaz',
    jobTitle: 'Chief Executive Officer',
    location: 'Mexico City, Mexico',
    company: 'Sol',
  },
  {
    email: 'eve@atelier.test',
    firstName: 'Eve',
    lastName: 'Evans',
    jobTitle: 'Designer',
    location: 'Paris, France',
    company: 'Atelier',
  },
];

async function addContact(page: Page, contact: Record<string, string>): Promise<void> {
  const res = await page.request.post('/api/contacts', { data: contact });
  expect(res.status(), await res.text()).toBe(201);
}

/** Matches a cell that shows this email (the Contact cell holds the name and the email). */
function emailPattern(email: string): RegExp {
  return new RegExp(email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

test('segments: template → live count → save → preview → edit → refresh → delete', async ({ page }) => {
  // One long flow with five screens checked by axe: more than the default minute.
  test.setTimeout(180_000);
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('segments'),
      password: 'segment-pass',
      confirmPassword: 'segment-pass',
      firstName: 'Ada',
      lastName: 'Lovelace',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  for (const person of people) await addContact(page, person);
  const imported = await page.request.post('/api/contacts/import-csv', {
    data: {
      csvData:
        'email,firstName,lastName,company\nfrank@nordtech.test,Frank,Fischer,Nordtech\ngrace@plain.test,Grace,Green,Plain',
    },
  });
  expect(imported.ok(), await imported.text()).toBe(true);

  await page.goto('/contact-segments');
  await expect(page.getByRole('heading', { name: 'Contact Segments', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'My Segments (0)' })).toBeVisible();
  await expect(page.getByText('No segments yet')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Segment' })).toBeVisible();
  await checkScreen(page, 'contact-segments-empty');

  // Templates: six cards; North America opens the create dialog prefilled.
  await page.getByRole('button', { name: 'Browse templates' }).click();
  await expect(page.getByRole('tab', { name: 'Templates', selected: true })).toBeVisible();
  for (const name of [
    'High Engagement Subscribers',
    'Recent Subscribers (last 30 days)',
    'Inactive Subscribers',
    'VIP Customers',
    'North America Contacts',
    'Tech Professionals',
  ]) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await checkScreen(page, 'contact-segments-templates');
  await page.getByRole('button', { name: 'North America Contacts', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: 'Create Segment' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveValue('North America Contacts');
  await expect(dialog.getByRole('radio', { name: 'Match ANY rule' })).toHaveAttribute('aria-checked', 'true');
  await expect(dialog.getByLabel('Value for rule 4')).toHaveValue('mexico');
  // Live count of the unsaved rules, with the first matching emails.
  await expect(dialog.getByText('3 contacts match')).toBeVisible();
  await expect(dialog.getByText(/ana@acme\.test/)).toBeVisible();
  await expect(dialog.getByText(/diego@sol\.test/)).toBeVisible();
  await checkScreen(page, 'contact-segments-dialog');
  await dialog.getByRole('radio', { name: 'Match ALL rules' }).click();
  await expect(dialog.getByText('0 contacts match')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Match ANY rule' }).click();
  await expect(dialog.getByText('3 contacts match')).toBeVisible();

  // An incomplete rule: no count, and saving keeps the dialog open with the rule's message inline.
  await dialog.getByRole('button', { name: 'Add rule' }).click();
  await expect(dialog.getByLabel('Field for rule 5')).toHaveText('Email');
  await expect(dialog.getByText('Complete the rules to see matches')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create Segment' }).click();
  await expect(dialog.getByText("The rule on 'Email' needs a value")).toBeVisible();
  await expect(dialog.getByLabel('Value for rule 5')).toBeFocused();
  await screenshot(page, 'contact-segments-dialog-incomplete');
  await expect(dialog).toBeVisible();
  // A date rule: 'days ago' by default, or a date picker.
  await pickOption(page, 'Field for rule 5', 'Created');
  await expect(dialog.getByLabel('Operator for rule 5')).toHaveText('before');
  await pickOption(page, 'Operator for rule 5', 'after');
  await expect(dialog.getByLabel('Date type for rule 5')).toHaveText('Days ago');
  await dialog.getByLabel('Days ago for rule 5').fill('30');
  await expect(dialog.getByText('7 contacts match')).toBeVisible();
  await screenshot(page, 'contact-segments-dialog-date-rule');
  await pickOption(page, 'Date type for rule 5', 'On date');
  await expect(dialog.getByText('Complete the rules to see matches')).toBeVisible();
  await dialog.getByLabel('Date for rule 5').fill('2000-01-01');
  await expect(dialog.getByText('7 contacts match')).toBeVisible();
  await dialog.getByRole('button', { name: 'Remove rule 5' }).click();
  await expect(dialog.getByText('3 contacts match')).toBeVisible();

  await dialog.getByRole('button', { name: 'Create Segment' }).click();
  await expect(page.getByText('Contact segment created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('tab', { name: 'My Segments (1)', selected: true })).toBeVisible();
  const card = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'North America Contacts' }) });
  await expect(card.getByText('3 contacts')).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toBeVisible();
  await expect(card.getByText('Auto-update')).toBeVisible();
  await expect(card.getByText(/Updated (just now|\d+ minutes? ago)/)).toBeVisible();
  await expect(card.getByText('Location contains "usa", "united states", "canada" or "mexico"')).toBeVisible();
  await checkScreen(page, 'contact-segments-list');

  // Preview: the stored members.
  await card.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('dialog', { name: 'Preview: North America Contacts' });
  await expect(preview).toBeVisible();
  for (const email of ['ana@acme.test', 'ben@maple.test', 'diego@sol.test'])
    await expect(preview.getByRole('cell', { name: emailPattern(email) })).toBeVisible();
  await expect(preview.getByRole('cell', { name: /carla@bauhaus\.test/ })).toHaveCount(0);
  await expect(preview.getByText('Showing 1–3 of 3')).toBeVisible();
  await expect(preview.getByRole('button', { name: 'Next' })).toBeDisabled();
  await checkScreen(page, 'contact-segments-preview');
  await page.keyboard.press('Escape');
  await expect(preview).toBeHidden();

  // Edit: remove a rule, change a field (operator and value reset), add a rule.
  await card.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Segment' });
  await expect(edit).toBeVisible();
  await expect(edit.getByText('3 contacts match')).toBeVisible();
  await edit.getByRole('button', { name: 'Remove rule 4' }).click();
  await expect(edit.getByText('2 contacts match')).toBeVisible();
  await pickOption(page, 'Field for rule 1', 'Company');
  await expect(edit.getByLabel('Operator for rule 1')).toHaveText('is');
  await expect(edit.getByLabel('Value for rule 1')).toHaveValue('');
  await expect(edit.getByText('Complete the rules to see matches')).toBeVisible();
  await pickOption(page, 'Operator for rule 1', 'contains');
  await edit.getByLabel('Value for rule 1').fill('bauhaus');
  await edit.getByRole('button', { name: 'Add rule' }).click();
  await pickOption(page, 'Field for rule 4', 'Job title');
  await pickOption(page, 'Operator for rule 4', 'contains');
  await edit.getByLabel('Value for rule 4').fill('designer');
  await expect(edit.getByText('3 contacts match')).toBeVisible();
  await expect(edit.getByText(/eve@atelier\.test/)).toBeVisible();
  await edit.getByLabel('Name').fill('North America & friends');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Contact segment updated successfully')).toBeVisible();
  await expect(edit).toBeHidden();
  const edited = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: 'North America & friends' }) });
  await expect(
    edited.getByText(
      'Company contains "bauhaus" OR Location contains "united states" or "canada" OR Job title contains "designer"',
    ),
  ).toBeVisible();
  await expect(edited.getByText('3 contacts')).toBeVisible();
  await edited.getByRole('button', { name: 'Preview' }).click();
  const editedPreview = page.getByRole('dialog', { name: 'Preview: North America & friends' });
  for (const email of ['ben@maple.test', 'carla@bauhaus.test', 'eve@atelier.test']) {
    await expect(editedPreview.getByRole('cell', { name: emailPattern(email) })).toBeVisible();
  }
  await expect(editedPreview.getByRole('cell', { name: /ana@acme\.test/ })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Refresh: a new Canadian contact joins.
  await addContact(page, {
    email: 'hank@north.test',
    firstName: 'Hank',
    lastName: 'Hill',
    location: 'Vancouver, Canada',
    company: 'North',
  });
  await edited.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByText('Segment membership refreshed: 4 contacts')).toBeVisible();
  await expect(edited.getByText('4 contacts')).toBeVisible();

  // Delete, after the confirmation.
  await edited.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this segment?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(edited).toBeVisible();
  await edited.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Contact segment deleted successfully')).toBeVisible();
  await expect(page.getByText('No segments yet')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'My Segments (0)' })).toBeVisible();
});
