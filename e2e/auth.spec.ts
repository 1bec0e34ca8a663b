import { expect, test } from '@playwright/test';
import { checkScreen, runAdmin, uniqueEmail } from './support.ts';

test('landing → sign-up (both steps) → Stripe Checkout (fake) → payment success → dashboard → log out → log in', async ({
  page,
}) => {
  const email = uniqueEmail('signup');
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Get Started Free' })).toBeVisible();
  // Plans on the landing page come from the server's catalogue.
  const pricing = page.locator('#pricing');
  await expect(pricing.getByText('$49')).toBeVisible();
  await expect(pricing.getByText('Up to 2,500 subscribers')).toBeVisible();
  await checkScreen(page, 'landing');

  await page.getByRole('link', { name: 'Get Started Free' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeVisible();
  await expect(page.getByText('14-day free trial • No credit card required • Cancel anytime')).toBeVisible();
  await expect(page.getByText('Most Popular')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with Pro Plan' })).toBeVisible();
  await checkScreen(page, 'signup-plan');
  await page.getByText('Starter', { exact: true }).first().click();
  await page.getByRole('button', { name: 'Continue with Starter Plan' }).click();

  await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
  await page.getByLabel('First name').fill('Margaret');
  await page.getByLabel('Last name').fill('Hamilton');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Company').fill('Apollo');
  await page.getByLabel('Password', { exact: true }).fill('lunar-module');
  await page.getByLabel('Confirm password').fill('lunar-modulE');
  await page.getByRole('button', { name: 'Start 14-Day Free Trial' }).click();
  await expect(page.getByText('Password Mismatch')).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
  await checkScreen(page, 'signup-account');

  // A password from the common-password list: the server's field error shows under the field.
  await page.getByLabel('Password', { exact: true }).fill('123456');
  await page.getByLabel('Confirm password').fill('123456');
  await page.getByRole('button', { name: 'Start 14-Day Free Trial' }).click();
  await expect(
    page
      .locator('#signup-password-error')
      .getByText('This password is too common. Choose one that is harder to guess.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);

  await page.getByLabel('Password', { exact: true }).fill('lunar-module');
  await page.getByLabel('Confirm password').fill('lunar-module');
  await page.getByRole('button', { name: 'Start 14-Day Free Trial' }).click();
  // Checkout at the (fake) Stripe of e2e/global-setup.ts lands on the success page once paid, which
  // goes on to the dashboard after 5 s. (Without Stripe, the development path: payment.int.test.ts.)
  await expect(page.getByText('Payment Successful!')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText("Welcome back! Here's your campaign overview.")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Total Subscribers')).toBeVisible();
  await expect(page.getByText('No campaigns yet')).toBeVisible();
  await checkScreen(page, 'dashboard');

  await page.getByRole('button', { name: /account menu/i }).click();
  await expect(page.getByRole('menuitem', { name: 'Profile' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Welcome Back')).toBeVisible();
  await checkScreen(page, 'login');

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Login Failed')).toBeVisible();
  await expect(page.getByText('Invalid email or password')).toBeVisible();

  await page.getByLabel('Password').fill('lunar-module');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText("Welcome back! Here's your campaign overview.")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('a temporary password from `admin reset-password` forces a password change', async ({ page, request }) => {
  const email = uniqueEmail('reset');
  const signup = await request.post('/api/auth/signup', {
    data: {
      email,
      password: 'first-pass',
      confirmPassword: 'first-pass',
      firstName: 'Katherine',
      lastName: 'Johnson',
      plan: 'pro',
    },
  });
  expect(signup.status()).toBe(201);
  const output = runAdmin(['reset-password', email]);
  const temporary = /Temporary password for .+: (\S+)/.exec(output)?.[1];
  expect(temporary, output).toBeTruthy();

  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('first-pass');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Login Failed')).toBeVisible();

  await page.getByLabel('Password').fill(temporary ?? '');
  await page.getByRole('button', { name: 'Sign In' }).click();
  const dialog = page.getByRole('dialog', { name: 'Password Change Required' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: /close/i })).toHaveCount(0);
  await checkScreen(page, 'forced-password-change');

  await dialog.getByLabel('New password').fill('short');
  await dialog.getByLabel('Confirm password').fill('short');
  await dialog.getByRole('button', { name: 'Set New Password' }).click();
  await expect(dialog.getByText('Password must be at least 6 characters long')).toBeVisible();
  await dialog.getByLabel('New password').fill('orbital-1');
  await dialog.getByLabel('Confirm password').fill('orbital-2');
  await dialog.getByRole('button', { name: 'Set New Password' }).click();
  await expect(dialog.getByText('Passwords do not match')).toBeVisible();
  await dialog.getByLabel('Confirm password').fill('orbital-1');
  await dialog.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page.getByText('Password Changed')).toBeVisible();
  await expect(dialog).toBeHidden({ timeout: 10_000 });

  const login = await request.post('/api/auth/login', { data: { email, password: 'orbital-1' } });
  expect(login.status()).toBe(200);
  expect((await login.json()).passwordChangeRequired).toBe(false);
});

test('an unknown path shows the 404 screen', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByText('404 Page Not Found')).toBeVisible();
  await checkScreen(page, 'not-found');
});

test('an unauthenticated visit to /campaigns ends on /login', async ({ page }) => {
  await page.goto('/campaigns');
  await expect(page.getByText('You are logged out. Logging in again...')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });
  await expect(page.getByText('Welcome Back')).toBeVisible();
});

test('the theme choice survives a reload', async ({ page, request }) => {
  const email = uniqueEmail('theme');
  await page.request.post('/api/auth/signup', {
    data: {
      email,
      password: 'theme-pass',
      confirmPassword: 'theme-pass',
      firstName: 'Dorothy',
      lastName: 'Vaughan',
      plan: 'pro',
    },
  });
  void request;
  await page.goto('/');
  await expect(page.getByText("Welcome back! Here's your campaign overview.")).toBeVisible();
  const html = page.locator('html');
  // From 'system' (light here) the toggle goes to light, then to dark.
  const toggle = page.getByRole('button', { name: /theme/i });
  await toggle.click();
  await expect(html).not.toHaveClass(/dark/);
  await toggle.click();
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('sendwell-theme'))).toBe('dark');
  await page.reload();
  await expect(page.getByText("Welcome back! Here's your campaign overview.")).toBeVisible();
  await expect(html).toHaveClass(/dark/);
  await toggle.click();
  await expect(html).not.toHaveClass(/dark/);
  await page.reload();
  await expect(html).not.toHaveClass(/dark/);
});
