import { escapeHtml } from '../rendering/index.ts';
import type { SubscriptionStatus, UnsubscribeView } from './tracking.service.ts';

/**
 * The pages a recipient reaches from an email's footer (/u/:token): plain HTML with forms that
 * POST, no script (the CSP allows only same-origin scripts, and none are needed), one inline
 * stylesheet that follows the reader's light or dark setting and fits a phone.
 */

const STYLES = `
:root{color-scheme:light dark;--bg:#f4f4f5;--card:#fff;--fg:#18181b;--muted:#52525b;--border:#e4e4e7;--primary:#18181b;--primary-fg:#fff;--ok-bg:#dcfce7;--ok-fg:#166534;--off-bg:#f4f4f5;--off-fg:#3f3f46;--warn-bg:#fef3c7;--warn-fg:#92400e;--focus:#2563eb}
@media (prefers-color-scheme:dark){:root{--bg:#09090b;--card:#18181b;--fg:#fafafa;--muted:#a1a1aa;--border:#27272a;--primary:#fafafa;--primary-fg:#18181b;--ok-bg:#052e16;--ok-fg:#86efac;--off-bg:#27272a;--off-fg:#d4d4d8;--warn-bg:#451a03;--warn-fg:#fcd34d;--focus:#60a5fa}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;padding:48px 16px 24px;background:var(--bg);color:var(--fg);font:16px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif}
main{width:100%;max-width:460px;background:var(--card);border:1px solid var(--border);border-radius:14px;padding:32px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
.eyebrow{margin:0 0 4px;font-size:13px;font-weight:600;letter-spacing:.02em;text-transform:uppercase;color:var(--muted)}
h1{margin:0 0 12px;font-size:24px;line-height:1.25}
p{margin:0 0 16px}
.muted{color:var(--muted);font-size:14px}
dl{margin:20px 0;padding:16px;border:1px solid var(--border);border-radius:10px;display:grid;grid-template-columns:auto 1fr;align-items:baseline;gap:10px 16px;font-size:14px}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere}
.pill{display:inline-block;padding:2px 10px;border-radius:999px;font-size:13px;font-weight:600}
.pill-subscribed{background:var(--ok-bg);color:var(--ok-fg)}
.pill-unsubscribed{background:var(--off-bg);color:var(--off-fg)}
.pill-bounced,.pill-complained{background:var(--warn-bg);color:var(--warn-fg)}
form{margin:24px 0 0}
button{width:100%;padding:12px 18px;border:1px solid var(--primary);border-radius:10px;background:var(--primary);color:var(--primary-fg);font:inherit;font-weight:600;cursor:pointer}
button.secondary{background:transparent;color:var(--fg);border-color:var(--border)}
button:hover{opacity:.9}
button:focus-visible,a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
a{color:inherit}
footer{margin-top:20px;font-size:13px;color:var(--muted)}
h2{margin:24px 0 4px;font-size:17px}
ul.lists{list-style:none;margin:8px 0 0;padding:0;border:1px solid var(--border);border-radius:10px}
ul.lists li{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:10px 12px;border-top:1px solid var(--border)}
ul.lists li:first-child{border-top:0}
ul.lists li span{overflow-wrap:anywhere}
form.inline{margin:0}
button.small{width:auto;padding:6px 14px;font-size:14px}
.notice{padding:10px 12px;border-radius:10px;background:var(--ok-bg);color:var(--ok-fg);font-size:14px}
@media (max-width:480px){body{padding-top:24px}main{padding:24px 20px}}
`;

/** "ann@example.com" → "a•••@example.com": enough to recognise one's address, not enough to read it off a forwarded link. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}

function htmlDocument(title: string, body: string): string {
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(title)}</title><style>${STYLES}</style></head>` +
    `<body><main>${body}</main><footer>Sent with Sendwell</footer></body></html>`
  );
}

const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
  bounced: 'Stopped: mail bounced',
  complained: 'Stopped: reported as spam',
};

function facts(view: UnsubscribeView): string {
  const from = view.senderAddress
    ? `${escapeHtml(view.sender)} &lt;${escapeHtml(view.senderAddress)}&gt;`
    : escapeHtml(view.sender);
  return (
    '<dl>' +
    `<dt>Email</dt><dd>${escapeHtml(maskEmail(view.email))}</dd>` +
    `<dt>From</dt><dd>${from}</dd>` +
    `<dt>Status</dt><dd><span class="pill pill-${view.status}">${STATUS_LABELS[view.status]}</span></dd>` +
    '</dl>'
  );
}

/** The lists the address is on, each with its own Leave button (the rest stay as they are). */
function listsSection(view: UnsubscribeView, action: string): string {
  if (view.lists.length === 0) return '';
  const rows = view.lists
    .map(
      (list) =>
        `<li><span>${escapeHtml(list.name)}</span>` +
        `<form method="post" action="${escapeHtml(action)}" class="inline">` +
        '<input type="hidden" name="action" value="leave-list">' +
        `<input type="hidden" name="listId" value="${list.id}">` +
        `<button type="submit" class="secondary small" aria-label="Leave ${escapeHtml(list.name)}">Leave</button></form></li>`,
    )
    .join('');
  return `<h2>Your lists</h2><p class="muted">Leave a list to stop its emails; you stay on the others.</p><ul class="lists">${rows}</ul>`;
}

function form(action: string, choice: 'unsubscribe' | 'resubscribe', label: string, secondary = false): string {
  return (
    `<form method="post" action="${escapeHtml(action)}">` +
    `<input type="hidden" name="action" value="${choice}">` +
    `<button type="submit"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}</button></form>`
  );
}

function heading(view: UnsubscribeView, title: string): string {
  return `<p class="eyebrow">${escapeHtml(view.sender)}</p><h1>${escapeHtml(title)}</h1>`;
}

/** Why mail stopped when it was not the recipient's choice, and that this page cannot undo it. */
function blockedExplanation(view: UnsubscribeView): string {
  const why =
    view.status === 'bounced' ? 'earlier mail to this address bounced' : 'an earlier message was reported as spam';
  return `<p>Mail from ${escapeHtml(view.sender)} to this address stopped because ${why}. To receive it again, contact ${escapeHtml(view.sender)} directly.</p>`;
}

/**
 * GET /u/:token (mode 'unsubscribe') and /u/:token?preferences=1 (mode 'preferences'): where the
 * address stands and the one action that changes it. Shows only; nothing changes until a POST.
 */
export function subscriptionPage(
  view: UnsubscribeView,
  options: { action: string; mode: 'unsubscribe' | 'preferences'; left?: boolean },
): string {
  const { action, mode } = options;
  const leftNote =
    options.left === undefined
      ? ''
      : options.left
        ? '<p class="notice" role="status">You left the list. You still get the other lists’ emails.</p>'
        : '<p class="notice" role="status">You were not on that list any more.</p>';
  const sender = escapeHtml(view.sender);
  if (view.status === 'bounced' || view.status === 'complained') {
    return htmlDocument(
      'Email preferences',
      heading(view, 'Email preferences') + facts(view) + blockedExplanation(view),
    );
  }
  if (view.status === 'unsubscribed') {
    const title = mode === 'preferences' ? 'Email preferences' : 'You are unsubscribed';
    return htmlDocument(
      title,
      heading(view, title) +
        `<p>This address no longer receives email from ${sender}.</p>` +
        facts(view) +
        '<p class="muted">Changed your mind? You can subscribe again; nothing is sent until you confirm.</p>' +
        form(action, 'resubscribe', `Resubscribe to ${view.sender}`, true),
    );
  }
  const title = mode === 'preferences' ? 'Email preferences' : `Unsubscribe from ${view.sender}?`;
  const intro =
    mode === 'preferences'
      ? `<p>You receive email from ${sender} at this address.</p>`
      : `<p>Confirm below and this address will stop receiving email from ${sender}.</p>`;
  return htmlDocument(
    title,
    heading(view, title) +
      leftNote +
      intro +
      facts(view) +
      (mode === 'preferences' ? listsSection(view, action) : '') +
      '<p class="muted">Unsubscribing stops every email from this sender. You can resubscribe from this page later.</p>' +
      form(action, 'unsubscribe', 'Unsubscribe from all emails'),
  );
}

/** After POST unsubscribe (a form or a mail client's one-click): the new state, and the way back. */
export function unsubscribedPage(view: UnsubscribeView, action: string): string {
  return htmlDocument(
    'You are unsubscribed',
    heading(view, 'You are unsubscribed') +
      `<p>${escapeHtml(maskEmail(view.email))} will not receive any more email from ${escapeHtml(view.sender)}.</p>` +
      facts(view) +
      (view.status === 'unsubscribed'
        ? '<p class="muted">Unsubscribed by mistake?</p>' +
          form(action, 'resubscribe', `Resubscribe to ${view.sender}`, true)
        : ''),
  );
}

/** After POST resubscribe. */
export function resubscribedPage(view: UnsubscribeView, preferencesHref: string): string {
  return htmlDocument(
    'You are subscribed again',
    heading(view, 'You are subscribed again') +
      `<p>${escapeHtml(maskEmail(view.email))} will receive email from ${escapeHtml(view.sender)} again.</p>` +
      facts(view) +
      `<p class="muted"><a href="${escapeHtml(preferencesHref)}">Email preferences</a></p>`,
  );
}

/** POST resubscribe refused: the address was stopped by a bounce or a spam report (409). */
export function resubscribeRefusedPage(view: UnsubscribeView): string {
  return htmlDocument(
    'Cannot resubscribe here',
    heading(view, 'Cannot resubscribe here') + facts(view) + blockedExplanation(view),
  );
}

/** A token that is malformed, forged or no longer matches a message (404). */
export function linkNotRecognisedPage(): string {
  return htmlDocument(
    'Link not recognised',
    '<h1>Link not recognised</h1><p>This link is not valid. If you copied it from an email, check that it is complete.</p>',
  );
}

/** A POST whose `action` is neither unsubscribe nor resubscribe (400). */
export function unknownActionPage(): string {
  return htmlDocument(
    'Request not understood',
    '<h1>Request not understood</h1><p>Choose unsubscribe or resubscribe from the preferences page.</p>',
  );
}
