import { expect, test, type Page } from '@playwright/test';
import jsQR from 'jsqr';
import { nav, signUpInCard } from './account-helpers';
import { openMail } from './mail-outbox';
import { totp } from './totp';

// A first-time visitor's whole path, as they would walk it: from the home page's Sign in
// link, sign up, confirm with the mailed code, enrol an authenticator app by scanning the QR code the
// page renders, sign out, and sign in again with the password and the app's code.

/**
 * What a phone's camera reads from the QR code as the browser drew it: the image decoded (a cut or
 * broken `src` has no size), painted onto a white canvas and scanned with jsQR.
 */
async function scanQrCode(page: Page): Promise<string> {
  const img = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  await expect(img).toBeVisible();
  const pixels = await img.evaluate(async (el: HTMLImageElement) => {
    await el.decode();
    const size = 320;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.fillStyle = '#fff';
    context.fillRect(0, 0, size, size);
    context.drawImage(el, 16, 16, size - 32, size - 32);
    const { data } = context.getImageData(0, 0, size, size);
    return { natural: [el.naturalWidth, el.naturalHeight], size, data: Array.from(data) };
  });
  expect(pixels.natural[0], 'the QR image decodes with a width').toBeGreaterThan(0);
  expect(pixels.natural[1], 'the QR image decodes with a height').toBeGreaterThan(0);
  const box = await img.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(100);
  const code = jsQR(Uint8ClampedArray.from(pixels.data), pixels.size, pixels.size);
  expect(code, 'the QR code scans').not.toBeNull();
  return code?.data ?? '';
}

test('a new user: Sign in link, sign up, confirm by code, enrol TOTP from the QR code, sign out, sign in with the code', async ({
  page,
  context,
}) => {
  const email = `newcomer-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 'a newcomer passphrase';

  await page.goto('/');
  await nav(page).getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();

  await signUpInCard(page, email, password);
  // The mail just went out: Resend waits out the server's interval instead of failing.
  await expect(page.getByRole('button', { name: /^Resend confirmation email \(in \d+ s\)$/ })).toBeDisabled();

  // The code from the confirmation mail, read in a second tab as from a mail app.
  const mail = await context.newPage();
  const code = (await openMail(mail, email, 'Confirm your signup')).match(/Or enter this code: (\d{6})/)?.[1];
  await mail.close();
  expect(code).toBeDefined();
  await page.getByLabel('Six-digit code').fill(code ?? '');
  await page.getByRole('button', { name: 'Verify Code' }).click();
  const avatar = nav(page).getByRole('button', { name: `Account menu for ${email}` });
  await expect(avatar).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await avatar.click();
  await page.getByRole('menuitem', { name: 'Profile and security' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const uri = new URL(await scanQrCode(page));
  expect(uri.protocol).toBe('otpauth:');
  expect(decodeURIComponent(uri.pathname)).toContain(email);
  const secret = uri.searchParams.get('secret') ?? '';
  await expect(page.getByTestId('totp-secret')).toHaveText(secret);
  await page.getByLabel('Authentication code').fill(totp(secret));
  await page.getByRole('button', { name: 'Verify and turn on' }).click();
  await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();

  await avatar.click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(avatar).toHaveCount(0);
  await nav(page).getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Two-factor authentication' })).toBeVisible();
  // The enrolment's code was accepted once; an app shows the next one (a code is never taken twice).
  await page.getByLabel('Authentication code').fill(totp(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(avatar).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // Signed in, the Sales Engineer page: its letter-spaced title keeps a wider gap between its words.
  await nav(page).getByRole('link', { name: 'Sales Engineer' }).click();
  const title = page.getByRole('heading', { level: 1, name: 'sales engineer' });
  await expect(title).toHaveText('s a l e s e n g i n e e r');
  const gaps = await title.evaluate((h1) => {
    const [first, second] = [...h1.querySelectorAll('[data-testid="landing-title-word"]')].map(
      (el) => el.firstChild as Text,
    );
    const box = (node: Text, index: number) => {
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      return range.getBoundingClientRect();
    };
    const last = (first?.length ?? 1) - 1;
    return {
      letters: box(first as Text, last).left - box(first as Text, last - 2).right,
      words: box(second as Text, 0).left - box(first as Text, last).right,
    };
  });
  expect(gaps.words).toBeGreaterThan(gaps.letters * 1.8);
});
