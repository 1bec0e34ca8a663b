/** A DSN bounce report (RFC 3464) about the message with this Message-ID, as a mail server sends it back. */
export function dsn(
  originalMessageId: string,
  recipient: string,
  status: string,
  action = 'failed',
  diagnostic = '550 5.1.1 User unknown',
) {
  return [
    'From: MAILER-DAEMON@mx.example',
    'To: bounces@acme.example',
    'Subject: Undelivered Mail',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'Delivery failed.',
    '',
    '--b1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${diagnostic}`,
    '',
    '--b1',
    'Content-Type: text/rfc822-headers',
    '',
    `Message-ID: ${originalMessageId}`,
    'Subject: Hi',
    '',
    '--b1--',
    '',
  ].join('\r\n');
}

/** An ARF complaint (RFC 5965) about the message with this Message-ID, as a mailbox provider's feedback loop sends it. */
export function arf(originalMessageId: string, recipient: string) {
  return [
    'From: fbl@isp.example',
    'To: abuse@acme.example',
    'Subject: Complaint',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="b2"',
    '',
    '--b2',
    'Content-Type: text/plain',
    '',
    'This is an abuse report.',
    '',
    '--b2',
    'Content-Type: message/feedback-report',
    '',
    'Feedback-Type: abuse',
    'User-Agent: isp/1.0',
    'Version: 1',
    `Original-Rcpt-To: ${recipient}`,
    '',
    '--b2',
    'Content-Type: message/rfc822',
    '',
    `Message-ID: ${originalMessageId}`,
    'From: news@acme.example',
    `To: ${recipient}`,
    'Subject: Hi',
    '',
    'Hello',
    '--b2--',
    '',
  ].join('\r\n');
}

/** A qmail notice that quotes neither the original message nor its Message-ID: only VERP can tie it. */
export function qmailNotice(to: string, recipient: string, lines: string): string {
  return [
    'From: MAILER-DAEMON@mail.example.de',
    `To: ${to}`,
    'Subject: failure notice',
    '',
    'Hi. This is the qmail-send program at mail.example.de.',
    "I'm afraid I wasn't able to deliver your message to the following addresses.",
    "This is a permanent error; I've given up. Sorry it didn't work out.",
    '',
    `<${recipient}>:`,
    lines,
    '',
  ].join('\r\n');
}
