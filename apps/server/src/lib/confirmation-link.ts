import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tokenQuerySchema } from '@sendwell/contract/common';
import type { Config } from '../config.ts';

/**
 * What the confirmation links Sendwell mails have in common (an account's own address, a sender
 * address): the installation's own sender, the mail, and the page the link opens. The page asks
 * for a click before it changes anything, because mail scanners fetch every link in a message;
 * its form POSTs to the same address. Plain HTML, no script (the CSP allows none inline).
 */

/** How long a confirmation link works. */
export const CONFIRMATION_LINK_TTL_MS = 48 * 60 * 60 * 1000;
/** How long a resend waits after the last link to the same address. */
export const CONFIRMATION_RESEND_WAIT_MS = 60 * 1000;

/** The From of the installation's own mail: no-reply at MAIL_FROM_DOMAIN. */
export function installationSender(config: Config): { name: string; address: string } {
  return { name: 'Sendwell', address: `no-reply@${config.mailFromDomain}` };
}

/** The longest name a confirmation mail repeats (in characters). */
const CHECKED_NAME_MAX = 50;
const PLAIN_NAME = /^[\p{L}\p{M}]+(?:[ -]+[\p{L}\p{M}]+)*$/u;

/**
 * A name a confirmation mail may repeat to an address that never asked for mail: the parts joined
 * by a space, when the whole is a plain name (letters of any script, spaces and hyphens, at most 50
 * characters); else null and the mail leaves the name out. Anything else a user typed (a URL, a
 * sentence, digits, punctuation) could turn our own mail into a message from them to a stranger.
 */
export function checkedName(...parts: (string | null | undefined)[]): string | null {
  const name = parts
    .map((part) => (part ?? '').trim().replace(/\s+/g, ' '))
    .filter((part) => part !== '')
    .join(' ');
  if (name === '' || [...name].length > CHECKED_NAME_MAX || !PLAIN_NAME.test(name)) return null;
  return name;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A confirmation mail: a heading, what it is about, the link as a button, and what to do if unexpected. */
export function confirmationMail(input: {
  heading: string;
  paragraphs: string[];
  link: string;
  buttonLabel: string;
  footnote: string;
}): { html: string; text: string } {
  const link = escapeHtml(input.link);
  const html =
    '<!DOCTYPE html><html><body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">' +
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">' +
    '<table role="presentation" width="520" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">' +
    `<tr><td><h1 style="margin:0 0 16px;font-size:22px">${escapeHtml(input.heading)}</h1>` +
    input.paragraphs
      .map((p) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5">${escapeHtml(p)}</p>`)
      .join('') +
    `<p style="margin:24px 0"><a href="${link}" style="display:inline-block;padding:12px 20px;background:#18181b;color:#ffffff;border-radius:8px;text-decoration:none;font-weight:bold">${escapeHtml(input.buttonLabel)}</a></p>` +
    `<p style="margin:0 0 16px;font-size:13px;color:#52525b;word-break:break-all">Or open this address: ${link}</p>` +
    `<p style="margin:0;font-size:13px;color:#52525b">${escapeHtml(input.footnote)}</p>` +
    '</td></tr></table></td></tr></table></body></html>';
  const text = [input.heading, '', ...input.paragraphs.flatMap((p) => [p, '']), input.link, '', input.footnote].join(
    '\n',
  );
  return { html, text };
}

export const PAGE_STYLES =
  ':root{color-scheme:light dark;--bg:#f4f4f5;--card:#fff;--fg:#18181b;--muted:#52525b;--border:#e4e4e7;--primary:#18181b;--primary-fg:#fff;--focus:#2563eb}' +
  '@media (prefers-color-scheme:dark){:root{--bg:#09090b;--card:#18181b;--fg:#fafafa;--muted:#a1a1aa;--border:#27272a;--primary:#fafafa;--primary-fg:#18181b;--focus:#60a5fa}}' +
  '*{box-sizing:border-box}' +
  'body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;padding:48px 16px 24px;background:var(--bg);color:var(--fg);font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}' +
  'main{width:100%;max-width:460px;background:var(--card);border:1px solid var(--border);border-radius:14px;padding:32px}' +
  'h1{margin:0 0 12px;font-size:24px;line-height:1.25}p{margin:0 0 16px;overflow-wrap:anywhere}' +
  'button,.button{display:block;width:100%;padding:12px 18px;border:1px solid var(--primary);border-radius:10px;background:var(--primary);color:var(--primary-fg);font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}' +
  'button:focus-visible,a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}a{color:inherit}' +
  '@media (max-width:480px){body{padding-top:24px}main{padding:24px 20px}}';

/** The page a confirmation link opens: what it confirms, and a button (a POST form) or a link onward. */
export function confirmationPage(input: {
  title: string;
  paragraphs: string[];
  form?: { action: string; button: string };
  link?: { href: string; label: string };
}): string {
  const action = input.form
    ? `<form method="post" action="${escapeHtml(input.form.action)}"><button type="submit">${escapeHtml(input.form.button)}</button></form>`
    : input.link
      ? `<a class="button" href="${escapeHtml(input.link.href)}">${escapeHtml(input.link.label)}</a>`
      : '';
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(input.title)} · Sendwell</title><style>${PAGE_STYLES}</style></head>` +
    `<body><main><h1>${escapeHtml(input.title)}</h1>${input.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}${action}</main></body></html>`
  );
}

/** Where a confirmation link stands for the person who opened it. */
export type LinkState =
  | 'ready' // valid, for the signed-in owner, not yet confirmed: the page offers the button
  | 'confirmed' // just confirmed by this request
  | 'already' // confirmed before
  | 'expired'
  | 'invalid' // malformed, tampered with, or its address is gone or changed
  | 'sign-in' // nobody is signed in: the owner signs in and opens the link again
  | 'other-account'; // signed in as an account the link is not for

/** The HTTP status of each state's page. */
const linkStateStatus: Record<LinkState, number> = {
  ready: 200,
  confirmed: 200,
  already: 200,
  expired: 410,
  invalid: 400,
  'sign-in': 401,
  'other-account': 403,
};

/**
 * Serves a mailed confirmation link at `path`: GET shows the page (changing nothing, as mail
 * scanners fetch links), POST from its button confirms. `answer` decides the state and renders the
 * page; this sends it with the state's status, uncached, and with Referrer-Policy same-origin (with
 * helmet's no-referrer the page's form posts Origin: null, which the cross-site check refuses; the
 * token still never leaves in a Referer to another site).
 */
export async function serveConfirmationLink(
  app: FastifyInstance,
  path: string,
  answer: (request: FastifyRequest, token: string, confirm: boolean) => Promise<{ state: LinkState; html: string }>,
): Promise<void> {
  await app.register(async (pages) => {
    // The page's form posts application/x-www-form-urlencoded, with nothing in it that is read.
    pages.addContentTypeParser('application/x-www-form-urlencoded', { bodyLimit: 1024 }, (_request, _body, done) =>
      done(null, {}),
    );
    const page = async (request: FastifyRequest<{ Querystring: { token: string } }>, reply: FastifyReply) => {
      const { state, html } = await answer(request, request.query.token, request.method === 'POST');
      return reply
        .status(linkStateStatus[state])
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'same-origin')
        .send(html);
    };
    const route = { guard: 'public' as const, schema: { querystring: tokenQuerySchema } };
    pages.get(path, route, page);
    pages.post(path, route, page);
  });
}
