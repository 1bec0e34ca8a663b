import { expect, test, type Locator, type Page } from '@playwright/test';
import { checkScreen, confirmAccountEmail, pickOption, uniqueEmail } from './support.ts';

async function signUp(page: Page): Promise<void> {
  const signup = await page.request.post('/api/auth/signup', {
    data: {
      email: uniqueEmail('sequences'),
      password: 'sequence-harbour-42',
      confirmPassword: 'sequence-harbour-42',
      firstName: 'Stella',
      lastName: 'Flow',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  expect(
    (await page.request.patch('/api/auth/user', { data: { postalAddress: '1 Harbour Street, Portsmouth' } })).ok(),
  ).toBe(true);
  await confirmAccountEmail(page);
}

/** Chooses `option` in the shadcn Select labelled `label` inside `scope`. */
/** A mouse drag from one element's centre to another's, in steps, as a person draws a connection. */
/**
 * Opens a step's settings in a builder just opened: the canvas's own keyboard selection (focus, Enter),
 * which needs no coordinates. A click right after the dialog opens can land before the canvas has
 * fitted its view and select nothing (a retry in a fresh-clone run).
 */
async function openStep(step: Locator): Promise<void> {
  await step.focus();
  await step.press('Enter');
}

async function dragBetween(page: Page, from: Locator, to: Locator): Promise<void> {
  const start = await from.boundingBox();
  const end = await to.boundingBox();
  if (!start || !end) throw new Error('a handle to drag between is not on screen');
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 12 });
  await page.mouse.up();
}

test('sequences: build by drag and keyboard, connect by mouse, ask before discarding changes, see the 400 named, save, reopen unchanged, activate, enrol and see the mail in the Outbox with its sequence', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signUp(page);
  const reader = uniqueEmail('reader');
  const contact = await page.request.post('/api/contacts', {
    data: { email: reader, firstName: 'Rita', lastName: 'Reader' },
  });
  expect(contact.status()).toBe(201);

  // ── Empty list ─────────────────────────────────────────────────────────────────
  await page.goto('/email-sequences');
  await expect(page.getByRole('heading', { level: 1, name: 'Email Sequences' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'My Sequences (0)' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No email sequences yet' })).toBeVisible();
  await checkScreen(page, 'sequences-empty');

  // ── Templates: six, and one opens a new builder with its flow ─────────────────────
  await page.getByRole('tab', { name: 'Templates' }).click();
  await expect(page.getByRole('button', { name: /^Use the .* template$/ })).toHaveCount(6);
  await page.getByRole('button', { name: 'Use the Feedback Loop template' }).click();
  const builder = page.getByRole('dialog', { name: 'Email Sequence Builder' });
  await expect(builder.getByLabel('Sequence Name')).toHaveValue('Feedback Loop');
  await expect(builder.locator('.react-flow__node')).toHaveCount(7);
  await expect(builder.locator('.react-flow__edge')).toHaveCount(7);
  await checkScreen(page, 'sequences-builder-template');
  await builder.getByRole('button', { name: 'Close' }).click();
  await expect(builder).toHaveCount(0);

  // ── A new sequence: the start node only; a step dragged onto the canvas ─────────────
  await page.getByRole('button', { name: 'New Sequence' }).click();
  await expect(builder).toBeVisible();
  await expect(builder.getByRole('button', { name: 'Save Sequence' })).toBeDisabled();
  await expect(builder.locator('.react-flow__node')).toHaveCount(1);
  await expect(builder.locator('.react-flow__node[data-id="start"]')).toContainText('Sequence Start');
  // Nothing changed yet: Close asks nothing. (The template above closed without asking too.)
  await builder.getByRole('button', { name: 'Close' }).click();
  await expect(builder).toHaveCount(0);
  await page.getByRole('button', { name: 'New Sequence' }).click();
  await builder.getByLabel('Sequence Name').fill('  Onboarding  ');
  // A change: Close (or Escape) asks before throwing it away; Keep editing keeps it.
  await builder.getByRole('button', { name: 'Close' }).click();
  const discard = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
  await expect(discard).toContainText('Your latest changes to this sequence have not been saved and will be lost.');
  await checkScreen(page, 'sequences-builder-discard');
  await discard.getByRole('button', { name: 'Keep editing' }).click();
  await expect(discard).toHaveCount(0);
  await expect(builder.getByLabel('Sequence Name')).toHaveValue('  Onboarding  ');
  await page.keyboard.press('Escape');
  await expect(discard).toBeVisible();
  await discard.getByRole('button', { name: 'Keep editing' }).click();
  // Gone before Back, as a person waits: Back pressed while the question was still closing once left
  // an overlay over its buttons (a run failed so).
  await expect(discard).toHaveCount(0);
  await expect(builder.getByLabel('Sequence Name')).toHaveValue('  Onboarding  ');
  // The browser's Back asks too, rather than leaving the page with the changes.
  await page.evaluate(() => window.history.back());
  await expect(discard).toBeVisible();
  await discard.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(/\/email-sequences$/);
  await expect(builder.getByLabel('Sequence Name')).toHaveValue('  Onboarding  ');
  await builder.getByLabel('Description (Optional)').fill('Welcome new readers');
  await expect(builder.getByLabel('Trigger')).toHaveText('A contact joins a list');
  await pickOption(builder, 'Trigger', 'Manual enrolment only');
  await builder
    .getByRole('button', { name: 'Add Email Step' })
    .dragTo(builder.getByTestId('sequence-canvas'), { targetPosition: { x: 200, y: 560 } });
  await expect(builder.locator('.react-flow__node')).toHaveCount(2);
  const settings = builder.getByTestId('node-settings');
  await expect(settings.getByRole('heading', { name: 'Settings: Email 1' })).toBeVisible();
  await settings.getByLabel('Subject').fill('Welcome to the harbour, {{firstName|friend}}');
  // Live: the node on the canvas shows the subject being typed.
  await expect(builder.locator('.react-flow__node-email')).toContainText('Welcome to the harbour');

  // Saved with no content: the API's 400 names the node, drawn in red, with the spec's toast.
  await builder.getByRole('button', { name: 'Save Sequence' }).click();
  await expect(page.getByText('Failed to create email sequence')).toBeVisible();
  await expect(builder.getByTestId('flow-problem')).toContainText('Email 1 (email-');
  await expect(builder.getByTestId('flow-problem')).toContainText('needs content');
  await expect(builder.locator('.react-flow__node-email [data-invalid]')).toHaveCount(1);
  await checkScreen(page, 'sequences-builder-refused');

  // The content: the campaign editor's blocks, edited in its Edit Component panel.
  await settings.getByRole('button', { name: '+ Text' }).click();
  await expect(settings.getByRole('heading', { name: 'Edit Component' })).toBeVisible();
  await settings.getByLabel('Text', { exact: true }).fill('Hi {{firstName|friend}}, welcome aboard.');
  await expect(
    settings.getByRole('button', { name: /^Edit Text “Hi \{\{firstName\|friend\}\}, welcom/ }),
  ).toBeVisible();
  await expect(builder.getByTestId('flow-problem')).toHaveCount(0);
  await checkScreen(page, 'sequences-builder-blocks');
  // Keyboard: a Wait step added with its button, then connections chosen in the settings.
  await builder.getByRole('button', { name: 'Add Wait Step' }).click();
  await expect(settings.getByRole('heading', { name: 'Settings: Wait 1' })).toBeVisible();
  await settings.getByLabel('Duration').fill('2');
  await pickOption(settings, 'Unit', 'hours');
  // A node on the canvas selected by keyboard: focus it and press Enter.
  await builder.locator('.react-flow__node[data-id="start"]').focus();
  await page.keyboard.press('Enter');
  await expect(settings.getByRole('heading', { name: 'Settings: Sequence Start' })).toBeVisible();
  await pickOption(settings, 'Connect to', 'Email 1');
  await expect(builder.locator('.react-flow__edge')).toHaveCount(1);
  // With the mouse: from the email's output dot (bottom) to the wait's input dot (top).
  await builder.locator('.react-flow__controls-fitview').click();
  await dragBetween(
    page,
    builder.locator('.react-flow__node-email .react-flow__handle.source'),
    builder.locator('.react-flow__node-delay .react-flow__handle.target'),
  );
  await expect(builder.locator('.react-flow__edge')).toHaveCount(2);
  const emailId = await builder.locator('.react-flow__node-email').getAttribute('data-id');
  const waitId = await builder.locator('.react-flow__node-delay').getAttribute('data-id');
  await builder.locator('.react-flow__node-email').click();
  await expect(settings.getByLabel('Connect to')).toHaveText('Wait 1');
  await builder.getByRole('button', { name: 'Save Sequence' }).click();
  await expect(page.getByText('Email sequence created successfully')).toBeVisible();
  await expect(builder).toHaveCount(0);
  // The dragged connection is saved.
  const saved = (await (await page.request.get('/api/email-sequences')).json()) as {
    flowData: { edges: { source: string; target: string }[] };
  }[];
  expect(saved[0]?.flowData.edges).toContainEqual(expect.objectContaining({ source: emailId, target: waitId }));

  // ── The card, and the builder reopened with what was saved ──────────────────────
  await expect(page.getByRole('tab', { name: 'My Sequences (1)' })).toBeVisible();
  const card = page.locator('[data-sequence="Onboarding"]');
  await expect(card.getByTestId('sequence-status')).toHaveText('Draft');
  await expect(card.getByText('Welcome new readers')).toBeVisible();
  // The trigger reads on the card as in the builder.
  await expect(card.getByText('Manual enrolment only', { exact: true })).toBeVisible();
  await expect(card.getByTestId('total-subscribers')).toHaveText('0');
  await card.getByRole('button', { name: 'Edit Onboarding' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit: Onboarding' });
  await expect(editor.getByLabel('Sequence Name')).toHaveValue('Onboarding');
  await expect(editor.getByLabel('Description (Optional)')).toHaveValue('Welcome new readers');
  await expect(editor.getByLabel('Trigger')).toHaveText('Manual enrolment only');
  await expect(editor.locator('.react-flow__node')).toHaveCount(3);
  await expect(editor.locator('.react-flow__edge')).toHaveCount(2);
  await openStep(editor.locator('.react-flow__node-email'));
  await expect(editor.getByLabel('Subject')).toHaveValue('Welcome to the harbour, {{firstName|friend}}');
  await expect(editor.getByRole('button', { name: /^Edit Text “Hi \{\{firstName\|friend\}\}, welcom/ })).toBeVisible();
  await openStep(editor.locator('.react-flow__node-delay'));
  await expect(editor.getByLabel('Duration')).toHaveValue('2');
  await expect(editor.getByLabel('Unit')).toHaveText('hours');
  await expect(editor.getByRole('button', { name: 'Update Sequence' })).toBeEnabled();
  // Looked at, nothing changed: Close asks nothing; nor does Back, which closes the builder and stays on the page.
  await page.evaluate(() => window.history.back());
  await expect(editor).toHaveCount(0);
  await expect(page).toHaveURL(/\/email-sequences$/);
  // Changed and discarded: the saved sequence is as it was.
  await card.getByRole('button', { name: 'Edit Onboarding' }).click();
  await openStep(editor.locator('.react-flow__node-delay'));
  await editor.getByLabel('Duration').fill('5');
  await editor.getByRole('button', { name: 'Close' }).click();
  await discard.getByRole('button', { name: 'Discard' }).click();
  await expect(editor).toHaveCount(0);
  await card.getByRole('button', { name: 'Edit Onboarding' }).click();
  await openStep(editor.locator('.react-flow__node-delay'));
  await expect(editor.getByLabel('Duration')).toHaveValue('2');
  await editor.getByRole('button', { name: 'Close' }).click();
  await expect(editor).toHaveCount(0);

  // ── Activate, enrol the contact by hand, see the enrolment and the mail ───────────
  await card.getByRole('button', { name: 'Activate Onboarding' }).click();
  await expect(card.getByTestId('sequence-status')).toHaveText('Active');
  await checkScreen(page, 'sequences-list');
  await card.getByRole('button', { name: 'Enrolments of Onboarding' }).click();
  const enrolments = page.getByRole('dialog', { name: 'Enrolments: Onboarding' });
  await enrolments.getByLabel(reader).check();
  await enrolments.getByRole('button', { name: 'Enrol', exact: true }).click();
  await expect(enrolments.getByTestId('enrol-result')).toHaveText('Enrolled 1 contact.');
  await expect(enrolments.locator(`[data-enrolment="${reader}"]`)).toBeVisible();
  await checkScreen(page, 'sequences-enrolments');
  await enrolments.getByRole('button', { name: 'Close' }).click();

  // The 0-delay first email is sent by the advance booked on enrolment: it arrives in the Outbox.
  await expect
    .poll(
      async () => {
        const answer = await page.request.get(`/api/outbox?search=${encodeURIComponent(reader)}`);
        const { messages } = (await answer.json()) as { messages: { subject: string }[] };
        return messages.map((m) => m.subject);
      },
      { timeout: 60_000 },
    )
    .toContain('Welcome to the harbour, Rita');
  await page.goto('/outbox');
  const row = page.getByRole('row', { name: /Welcome to the harbour, Rita/ });
  await expect(row).toBeVisible();
  // It names the sequence and step it came from, as a campaign's mail names its campaign.
  await expect(row.getByRole('cell', { name: 'Sequence Onboarding · Email 1' })).toBeVisible();
  await row.getByRole('link').click();
  await expect(page.getByRole('link', { name: 'Onboarding', exact: true })).toHaveAttribute('href', '/email-sequences');
  await expect(page.getByText('Email 1', { exact: true })).toBeVisible();
  await checkScreen(page, 'sequences-outbox-message');

  // ── Counts and analytics from the server ──────────────────────────────────────
  await page.goto('/email-sequences');
  await expect(card.getByTestId('total-subscribers')).toHaveText('1');
  await page.getByRole('tab', { name: 'Analytics' }).click();
  await expect(page.getByTestId('stat-sent')).toHaveText('1');
  await expect(page.getByRole('row', { name: /Email 1/ })).toBeVisible();
  await checkScreen(page, 'sequences-analytics');

  // ── The account's sending limit: a real form, checked by the contract, saved and read back ──
  await page.getByRole('tab', { name: /My Sequences/ }).click();
  const limit = page.getByRole('form', { name: 'Sending limit' });
  const perContact = limit.getByLabel('Emails per contact per 24 hours');
  await expect(perContact).toHaveValue('3');
  await perContact.fill('0');
  await limit.getByRole('button', { name: 'Save sending limit' }).click();
  await expect(limit.getByRole('alert')).toHaveText('Enter a whole number of emails from 1 to 50');
  await expect(perContact).toHaveAttribute('aria-invalid', 'true');
  await checkScreen(page, 'sequences-sending-limit-refused');
  await perContact.fill('5');
  await limit.getByRole('button', { name: 'Save sending limit' }).click();
  await expect(page.getByText('Sending limit saved')).toBeVisible();
  await expect(limit.getByRole('alert')).toHaveCount(0);
  await page.reload();
  await expect(
    page.getByRole('form', { name: 'Sending limit' }).getByLabel('Emails per contact per 24 hours'),
  ).toHaveValue('5');
  await checkScreen(page, 'sequences-sending-limit');

  // ── Editing an active sequence says how many enrolments it affects ────────────────
  await card.getByRole('button', { name: 'Edit Onboarding' }).click();
  await openStep(editor.locator('.react-flow__node-delay'));
  await editor.getByLabel('Duration').fill('3');
  await editor.getByRole('button', { name: 'Update Sequence' }).click();
  await expect(page.getByTestId('edit-impact')).toContainText('1 enrolment is in this sequence now.');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Update Sequence' }).click();
  await expect(page.getByText('Email sequence updated successfully')).toBeVisible();

  // ── Pause, then delete with the spec's confirmation ───────────────────────────────
  await card.getByRole('button', { name: 'Pause Onboarding' }).click();
  await expect(card.getByTestId('sequence-status')).toHaveText('Paused');
  await card.getByRole('button', { name: 'Delete Onboarding' }).click();
  await expect(
    page.getByText('Are you sure you want to delete this sequence? This action cannot be undone.'),
  ).toBeVisible();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Email sequence deleted successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No email sequences yet' })).toBeVisible();
});
