import { spawnSync } from 'node:child_process';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Waits for every running animation and transition that ends to end. A dialog fading in has
 * text at part opacity, which axe measures as low contrast (CI failed on exactly that); endless
 * ones (spinners, skeleton pulses) are left running.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const ending = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((animation) => animation.finished.catch(() => undefined)));
  });
}

/** The page's serious and critical axe-core violations once its animations have ended. */
async function seriousViolations(page: Page): Promise<string[]> {
  await settleAnimations(page);
  // Email previews are iframes with sandbox="" (no scripts): axe cannot run inside them, and
  // @axe-core/playwright then hangs; their content is the rendered email, not the app's UI.
  // Only violations are read: axe then details one node of each passing or inapplicable rule instead
  // of every node, which is most of its work on a long page (axe's documented resultTypes option).
  // Legacy mode runs axe in the page (and its same-origin frames) and aggregates there; the default
  // opens a blank page per analysis to aggregate frames' results, which cost more than the analysis
  // itself (about 600 ms against 230 ms a call measured on the dashboard, campaign editor and contacts
  // list). The app has no cross-origin frames, the one case legacy mode does not cover.
  const builder = new AxeBuilder({ page })
    .setLegacyMode(true)
    .exclude('iframe[sandbox=""]')
    .options({ resultTypes: ['violations'] });
  const results = await builder.analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return bad.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')})`,
  );
}

/**
 * Fails on any serious or critical axe-core violation of the page once its animations have ended.
 * An animation can also start during the analysis: a toast closing on its timer was caught fading
 * out, its text at part opacity (CI failed on exactly that). So a page with violations is analysed
 * once more, after that animation, and what is still there counts.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  let summary = await seriousViolations(page);
  if (summary.length > 0) summary = await seriousViolations(page);
  expect(summary, `axe violations on ${label}`).toEqual([]);
}

/**
 * Whether screenshots are taken: nobody looks at a CI run's screenshots (its clone is thrown away),
 * where they cost minutes for nothing. E2E_SCREENSHOTS=1 takes them anyway.
 */
function screenshotsWanted(): boolean {
  return !process.env.CI || Boolean(process.env.E2E_SCREENSHOTS);
}

/**
 * Saves a screenshot of the whole page under test-results/screens for people to look at. Chromium
 * paints a sandboxed iframe (an email preview) only inside the viewport, so a full-page capture
 * left previews below the fold blank: the viewport is as tall as the page while it is taken.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!screenshotsWanted()) return;
  const size = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const grow = size !== null && height > size.height;
  if (grow) {
    await page.setViewportSize({ width: size.width, height });
    // Every frame, the iframes included (each paints on its own, and only once it is on screen),
    // draws twice before the capture; one that never does (hidden) is given a second.
    const painted = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    await Promise.all(
      page
        .frames()
        .map((frame) =>
          Promise.race([frame.evaluate(painted).catch(() => undefined), new Promise((r) => setTimeout(r, 1000))]),
        ),
    );
  }
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
  if (grow) await page.setViewportSize(size);
}

/**
 * Checks the page with axe in the light theme at the window's width, in every flow that calls it.
 * The dark theme swaps only the colour variables on the same DOM (the same names and roles), and phone
 * width changes the layout: what they can break (a colour pair's contrast, a layout at 390 px) shows on
 * a screen whichever flow reached it, so both are checked once per screen, together (dark at 390×844),
 * in e2e/accessibility.spec.ts rather than again in every flow (axe was a quarter of the browser tests'
 * CPU on three spec files, 38 of 151 CPU-s, and that pass half of it).
 * Outside CI (or with E2E_SCREENSHOTS=1) the screenshots still show all four looks (light, dark, phone
 * dark, phone) for people to judge, without axe, so a local run asserts what CI does; in CI the theme
 * and the window size are left alone.
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await expectAccessible(page, `${name} (light)`);
  if (!screenshotsWanted()) return;
  await screenshot(page, `${name}-light`);
  const setDark = (dark: boolean) => page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
  await setDark(true);
  await screenshot(page, `${name}-dark`);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `${name}-phone-dark`);
  await setDark(false);
  await screenshot(page, `${name}-phone`);
  if (size) await page.setViewportSize(size);
}

/**
 * Checks a screen a change touched with axe in every look at once: light at the window's width, then
 * dark and light at 390×844 (the way checkScreen's flows and e2e/accessibility.spec.ts split it
 * between them), with a screenshot of each outside CI. For a test written for one changed screen,
 * which no other flow reaches in the dark theme at phone width. The theme and the window are put back.
 */
export async function checkEveryLook(page: Page, name: string): Promise<void> {
  const setDark = (dark: boolean) => page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
  const size = page.viewportSize();
  await expectAccessible(page, `${name} (light)`);
  if (screenshotsWanted()) await screenshot(page, `${name}-light`);
  await page.setViewportSize({ width: 390, height: 844 });
  await setDark(true);
  await expectAccessible(page, `${name} (phone, dark)`);
  if (screenshotsWanted()) await screenshot(page, `${name}-phone-dark`);
  await setDark(false);
  await expectAccessible(page, `${name} (phone, light)`);
  if (screenshotsWanted()) await screenshot(page, `${name}-phone`);
  if (size) await page.setViewportSize(size);
}

let counter = 0;
/** A unique email for a test account. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}@e2e.test`;
}

/** Runs `npm run admin -- …` against the e2e server's data directory and returns its output. */
export function runAdmin(args: string[]): string {
  const result = spawnSync('npm', ['run', '--silent', 'admin', '--', ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/**
 * The confirmation link in the newest Outbox message with this subject: the e2e server has no
 * SMTP_URL, so the mail Sendwell sends (confirmation links included) is caught in the Outbox.
 */
export async function outboxLink(page: Page, subject: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const answer = await page.request.get(`/api/outbox?search=${encodeURIComponent(subject)}`);
      const { messages } = (await answer.json()) as { messages: { id: number; subject: string }[] };
      const message = messages.find((m) => m.subject === subject);
      if (!message) return undefined;
      const detail = (await (await page.request.get(`/api/outbox/${message.id}`)).json()) as { text: string | null };
      link = /https?:\/\/\S+\/confirm-(?:email|sender|forwarding)\?token=[\w.%-]+/.exec(detail.text ?? '')?.[0];
      return link;
    })
    .toBeTruthy();
  return link ?? '';
}

/** Follows a confirmation link as its owner does, signed in: opens its page and presses the button. */
export async function followConfirmationLink(page: Page, link: string, button: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('button', { name: button }).click();
  await expect(page.getByRole('heading', { level: 1, name: /confirmed$/ })).toBeVisible();
}

/** Confirms the signed-in account's own address with the link sign-up mailed (read from the Outbox). */
export async function confirmAccountEmail(page: Page): Promise<void> {
  await followConfirmationLink(page, await outboxLink(page, 'Confirm your email address'), 'Confirm my email address');
}

/** Adds a sender address to the signed-in account and confirms it with the link mailed to it (read from the Outbox). */
export async function addConfirmedSender(page: Page, email: string): Promise<void> {
  const added = await page.request.post('/api/sender-addresses', { data: { email } });
  expect(added.status()).toBe(201);
  await followConfirmationLink(
    page,
    await outboxLink(page, `Confirm ${email} as a sender address`),
    'Confirm sender address',
  );
}

/**
 * Picks an option of a Radix select and waits until the select shows it and its list is closed. The
 * option is chosen with the keyboard (focused, then Enter): a click on a list that is still opening or
 * scrolling (a slow run) waits for it to stand still and can miss. While the list is open Radix hides
 * the rest of the page from the accessibility tree, the select included, so a retry finds the open list
 * by its role rather than the select by its name (CI failed on exactly that: the retry could not see
 * the select and waited out its 30 s).
 */
export async function pickOption(scope: Page | Locator, name: string, option: string): Promise<void> {
  const select = scope.getByRole('combobox', { name, exact: true });
  const list = ('page' in scope ? scope.page() : scope).getByRole('listbox');
  await expect(async () => {
    if (!(await list.isVisible())) await select.click({ timeout: 5_000 });
    await list.getByRole('option', { name: option, exact: true }).press('Enter', { timeout: 5_000 });
    await expect(list).toHaveCount(0, { timeout: 2_000 });
    await expect(select).toHaveText(option, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}
