import { simpleParser } from 'mailparser';

/** What an inbound report says about a message we sent. */
export type Feedback =
  | {
      kind: 'bounce';
      hard: boolean;
      recipient: string | null;
      originalMessageId: string | null;
      status: string | null;
      diagnostic: string | null;
    }
  | { kind: 'complaint'; recipient: string | null; originalMessageId: string | null; feedbackType: string }
  | { kind: 'other' };

function field(text: string, name: string): string | null {
  const match = new RegExp(`^${name}:\\s*(.+(?:\\r?\\n[ \\t].+)*)`, 'im').exec(text);
  return match?.[1]?.replace(/\r?\n[ \t]+/g, ' ').trim() ?? null;
}

function addressOf(value: string | null): string | null {
  if (!value) return null;
  const address = value.includes(';') ? value.split(';').pop() : value;
  return address?.trim().replace(/^<|>$/g, '').toLowerCase() || null;
}

/**
 * Reads a DSN bounce (multipart/report; report-type=delivery-status, RFC 3464) or an ARF complaint
 * (report-type=feedback-report, RFC 5965), with the Message-ID of the original message it is about.
 */
export async function parseFeedback(raw: Buffer): Promise<Feedback> {
  const parsed = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const parts = parsed.attachments.map((a) => ({
    type: a.contentType.toLowerCase(),
    text: a.content.toString('utf8'),
  }));
  const original = parts.find(
    (p) => p.type === 'message/rfc822' || p.type === 'text/rfc822-headers' || p.type === 'message/rfc822-headers',
  );
  const originalMessageId = original ? (/^Message-ID:\s*(<[^>]+>)/im.exec(original.text)?.[1] ?? null) : null;

  // mailparser folds message/delivery-status and message/feedback-report parts into the text body,
  // so the report's fields are read from the attachment when present, else from the text.
  const contentType = parsed.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  const reportType =
    contentType?.value === 'multipart/report' ? contentType.params?.['report-type']?.toLowerCase() : undefined;
  const reportText = (type: string) => parts.find((p) => p.type === type)?.text ?? parsed.text ?? '';

  const report =
    reportType === 'feedback-report' || parts.some((p) => p.type === 'message/feedback-report')
      ? { text: reportText('message/feedback-report') }
      : undefined;
  if (report) {
    return {
      kind: 'complaint',
      feedbackType: field(report.text, 'Feedback-Type')?.toLowerCase() ?? 'abuse',
      recipient: addressOf(field(report.text, 'Original-Rcpt-To')),
      originalMessageId,
    };
  }
  const status =
    reportType === 'delivery-status' || parts.some((p) => p.type === 'message/delivery-status')
      ? { text: reportText('message/delivery-status') }
      : undefined;
  if (status) {
    const code = field(status.text, 'Status');
    const action = field(status.text, 'Action')?.toLowerCase() ?? '';
    return {
      kind: 'bounce',
      hard: action === 'failed' && Boolean(code?.startsWith('5')),
      recipient: addressOf(field(status.text, 'Final-Recipient') ?? field(status.text, 'Original-Recipient')),
      originalMessageId,
      status: code,
      diagnostic: field(status.text, 'Diagnostic-Code'),
    };
  }
  return { kind: 'other' };
}
