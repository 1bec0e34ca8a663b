import { HARD_BOUNCE_REASONS, type BounceKind, type BounceReason } from '@sendwell/contract/bounces';
import { decodeWords, parseHeaders, readMessage, splitHead, type Headers, type MimePart } from './mime-lite.ts';

/** What a message that came back to us says about a message we sent. */
export interface Verdict {
  kind: BounceKind;
  /** Set for bounces only (and for delay notices, which are 'other' with the reason they give). */
  reason: BounceReason | null;
  /** True only for a permanent, address-level failure (see HARD_BOUNCE_REASONS). */
  hard: boolean;
  /** The address the report is about, lower-cased. */
  recipient: string | null;
  /** The Message-ID of the message we sent, with its angle brackets, when the report quotes it. */
  originalMessageId: string | null;
  /** The DSN status (e.g. '5.1.1'), or the SMTP reply code when only that is known. */
  status: string | null;
  /** The receiver's own words (Diagnostic-Code or the notice's error line), at most 1,000 characters. */
  diagnostic: string | null;
  /** The ARF Feedback-Type of a complaint ('abuse', 'fraud', …). */
  feedbackType: string | null;
}

const NOTHING: Verdict = {
  kind: 'other',
  reason: null,
  hard: false,
  recipient: null,
  originalMessageId: null,
  status: null,
  diagnostic: null,
  feedbackType: null,
};

const HARD = new Set<BounceReason>(HARD_BOUNCE_REASONS);

// ---------------------------------------------------------------------------------------------
// Reasons from words. Checked in this order on the receiver's diagnostic: the first match wins,
// so the specific (a block list, a quota) come before the general (a refused recipient).
// ---------------------------------------------------------------------------------------------
const TEXT_RULES: [BounceReason, RegExp][] = [
  [
    'filtered',
    /blocked by (the )?recipient|recipient has blocked|blocked the sender|sender (is )?blocked by|user blocked sender|rule imposed mailbox access|mail is rejected by recipients|recipient'?s? (preferences|privacy settings)|resolver\.rst\.notauthorized|delivery restriction check failed|does not accept mail from you|message rejected due to user rules|rejected by recipient (user rules|mail filter)|(message|mail) rejected by (the )?recipient'?s? (mail )?filter|only accepts messages from (its|people in)|permission to post/i,
  ],
  [
    'policy-violation',
    /administrative(ly)? prohibit|envelope blocked|not accepted for policy reasons|(email )?policy violation detected|\bbatv\b|backscatter protection|emetteur invalide|invalid sender|does not allow external forwarding/i,
  ],
  ['user-unknown', /inactive email address|does not specify a valid notes mail file/i],
  [
    'blocked',
    /\b(very low|low|poor|bad) reputation|reputation of the sending|\b(ip|sender|domain) reputation|will be permanently deferred|(sender|sending|client) ip\b.{0,60}\b(is (in|on|listed)|blocked|blacklist)|tosa@rx\.t-online\.de|IP=[\d.]+ - A problem occurred/i,
  ],
  [
    'spam-detected',
    /spam content|content (judged|identified|flagged) (to be |as )?spam|(judged|identified|flagged|classified|detected) (to be |as )spam|suspicion of spam|spam message rejected|message content rejected|mail content denied/i,
  ],
  ['message-too-big', /mail ?size limit|message size limit|exceeds (the )?maximum (message )?size/i],
  ['suspended', /(account|mailbox) (has been |is )?(blocked|disabled|suspended)|blocked (account|mailbox)/i],
  [
    'rate-limited',
    /too many (connections|messages|recipients|concurrent|emails)|rate (limit|control)|ratelimit|throttl|sending (limit|quota)|exceeded the (rate|limit|max(imum)? number of)|connection (rate )?limit|try (again|later).{0,40}(volume|rate)|unusual rate|temporarily deferred due to user complaints|TSS?0[1-4]|unexpected volume|\bRL\d|receiving mail at a rate that prevents|too fast|slow down|excessive volume|too many (sessions|concurrent connections)|frequency limited|4\.7\.28/i,
  ],
  [
    'security-error',
    /\b(spf|dkim|dmarc)\b.{0,60}(fail|check|policy|reject|align|not pass|did not pass|permerror|unauthori[sz]ed)|(fail|failed|failure|does not pass|did not pass|not pass).{0,30}\b(spf|dkim|dmarc)\b|authentication (failed|required)|unauthenticated (email|mail|sender)|not authenticated|(tls|starttls|ssl).{0,40}(required|fail|handshake)|must use (tls|starttls)|encryption required|certificate (verification )?(failed|expired|invalid)|sender (address )?forged|5\.7\.(1[0-9]|2[0-7]|5|7|8|9)\b/i,
  ],
  [
    'blocked',
    /blocked using|(?<!not )listed (at|on|in|by)\b|block ?list|black ?list|blacklisted|dnsbl|\brbl\b|spamhaus|spamcop|barracudacentral|sorbs|uceprotect|(client|connecting) (host|ip).{0,60}(blocked|rejected|refused|denied|listed)|(ip|address).{0,40}(is|has been) (blocked|blacklisted|banned|temporarily rate limited|denied)|banned sending ip|poor reputation|low reputation|bad reputation|reputation of the sending|sender reputation|access denied.{0,40}(ip|banned|sending)|service unavailable; client host|\b(S3140|S3150|S3115|RP-00\d|BL\d{2})\b|reverse (dns|lookup)|ptr record|no ptr|rdns|dynamic ip|residential ip|dialup|not allowed to send from your ip|connections? (from|not accepted from) .{0,40}(refused|rejected|blocked)|blocked (by|for|because|due|from)|(ip|domain|host) blocked|found on one or more/i,
  ],
  [
    'spam-detected',
    /\bspam\b|\bspammy\b|spam (filter|content|detected)|unsolicited|junk mail|bulk mail|message content rejected|\buce\b|likely (unsolicited|spam)|classified as|scored|score.{0,20}(too high|exceed)|(high|suspicious) (probability|content)|content filter|detected as|looks like/i,
  ],
  [
    'content-error',
    /virus|malware|infected|attachment|(header|headers).{0,40}(invalid|malformed|not|too|missing|syntax|rfc)|(invalid|malformed|missing|bad|duplicate) (header|message-id|date|from|mime|content)|rfc ?5322|rfc ?2822|rfc ?822|message (is )?not (rfc|compliant)|8-?bit|bare (lf|cr)|line too long|content-type|unacceptable content|message body|forbidden (content|file)|disallowed (content|file)|executable|not (permitted|allowed) .{0,20}(content|file|extension)|(file|extension) (type )?(is )?not allowed/i,
  ],
  [
    'mailbox-full',
    /mailbox (is )?full|(mail|mailbox|inbox) .{0,40}(full|exceeded)|(is )?over ?quota|quota (exceeded|exceed|full|limit)|exceeded (storage|.{0,30}quota)|exceeds? .{0,30}quota|insufficient (disk |system |storage |mailbox )?(space|storage)|not enough (space|storage|disk)|out of (storage|disk|space)|mail ?folder is full|storage (limit|allocation)|size limit of the mailbox|too much mail|disk ?(quota|full)|user has (exceeded|too many messages)|4\.2\.2|5\.2\.2|overquota|quotaexceeded|full mailbox|mailbox size limit/i,
  ],
  [
    'message-too-big',
    /message (size )?(is )?(too (big|large)|exceeds|larger than)|(size|length) (of (the )?message )?(exceeds|exceeded|too)|message size .{0,30}(exceed|limit|larger|over)|exceed(s|ed)? .{0,30}(size limit|maximum (message )?size|message size)|max(imum)? (message )?size|size limit|too big|too large|message length exceeds|5\.3\.4|5\.2\.3/i,
  ],
  ['blocked', /\bblocked\b/i],
  [
    'not-accepting-mail',
    /does not accept (any )?(e-?)?mail|not accepting (any )?(e-?)?mail|accepts no mail|null mx|no mail (is )?accepted|domain (does not|doesn't) (receive|accept)|does not receive mail|this address (does not|doesn't) receive mail|unable to receive mail|not configured to receive|no longer accepts? mail|5\.1\.10 .{0,30}null|recipient domain .{0,30}not accept/i,
  ],
  [
    'has-moved',
    /has (been )?moved|address (has )?changed|has been replaced by|new address|no longer (at|with|available at|used|in use)|user not local|please try <|forwarding address|moved to|address is no longer/i,
  ],
  [
    'suspended',
    /suspend|disabled|deactivated|inactive|not active|account (has been |is )?(locked|closed|frozen|expired|terminated|blocked|on hold|deleted)|mailbox (has been |is )?(locked|closed|frozen|expired|blocked|unavailable due to inactivity|deleted)|(account|mailbox) (is )?(no longer|not) (active|enabled|in use)|expired account|temporarily (closed|unavailable for)|blocked (account|mailbox|recipient)|mailbox is restricted|archived recipient|boite du destinataire archivee|this account has been|recipient .{0,20}(is )?disabled/i,
  ],
  [
    'filtered',
    /(user|recipient)'?s? (filter|rule)|filtered|rejected by (the )?(recipient|user)|recipient (rejected|refused|declined) (your|the|this) (message|mail)|not (on|in) (the )?(recipient'?s?|user'?s?) (allow|accept|white|safe)|restricted (to|senders)|has restricted|only accepts? mail from|does not accept mail from (you|your|this sender)|sender (is )?not (allowed|authorized|permitted|on the allow)|not authorized to (send|email) (to )?this|group .{0,30}only|moderat|blocked the sender|sender blocked by recipient|the recipient has (chosen|asked)|you are not allowed to send to|refuse[sd]? mail from you/i,
  ],
  [
    'host-unknown',
    /host (or domain name )?not found|domain (name )?not found|no such (domain|host)|domain (does not|doesn't) exist|(recipient|destination) (domain|host) .{0,30}(not found|unknown|does not exist|invalid)|unknown (host|domain)|host unknown|unrouteable (mail )?(domain|address)|unroutable domain|name or service not known|nxdomain|no (mx|a) (record|or a)|mx .{0,30}(not found|does not exist|invalid)|dns (error|lookup).{0,40}(not found|domain|nxdomain|does not exist)|illegal host|invalid domain|domain (is )?(not valid|invalid)|bad destination (system|host)|unresolvable|could not be resolved|cannot resolve|dns domain \S+ does not exist|domainnonexistent|mx records point to non-existent hosts|5\.1\.2|\bnx\b/i,
  ],
  [
    'user-unknown',
    /user unknown|unknown (user|recipient|local[- ]?part|mailbox|address|account|alias)|no such (user|mailbox|recipient|address|account|person|local user)|(user|mailbox|recipient|address|account|e-?mail account|email address)( name)? (\S+ )?(does not exist|doesn't exist|not found|unknown|is unknown|is not valid|is invalid|invalid|not exist|could not be found|was not found|wasn't found|not listed|is not known)|(invalid|unknown|bad|non-?existent) (recipient|mailbox|user|address|email address|destination mailbox|account)|recipient (address )?rejected|recipient not (found|valid|recognized)|recipientnotfound|recipnotfound|resolver\.adr|undeliverable address|addressee unknown|no mailbox (here|by that name)|not a valid (mailbox|user|recipient)|is not a valid|mailbox (not found|unavailable|not available|does not exist)|does not have an? .{0,30}account|doesn't have an? .{0,30}account|not listed in|not our customer|no account by that name|address rejected|rejected: (user|recipient)|account (does not exist|not found|unavailable)|the email account that you tried to reach does not exist|couldn't be found|wasn't found at|was not found at|no valid recipients|5\.1\.1\b|user doesn't exist|invalid address|address unknown|unknown or illegal alias|not a known user|no user with that|user not found|there is no such|we do not relay|access denied\. AS\(|dbeb/i,
  ],
  [
    'expired',
    /retry (time|timeout) (exceeded|expired)|delivery expired|message too old|delivery (time|period) (expired|exceeded)|message (has )?expired|could not be delivered (within|for) \d+|been (undeliverable|queued) for|(gave|giving) up|queue(d)? too long|max(imum)? (queue|retry)|time (limit|to live) exceeded|has not been delivered for|delivery attempts? .{0,40}(expired|exhausted|failed for)|expired after|retry period|long failure period|timed out.{0,30}queue|4\.4\.7/i,
  ],
  [
    'network-error',
    /network error|connection (refused|reset|timed out|timeout|lost|closed|dropped)|lost connection|timed out|timeout|network (is )?unreachable|no route to host|host unreachable|could not connect|unable to connect|can'?t connect|connect to .{0,60} (failed|refused)|mail (for .{0,60})?loops? back|mail loop|routing loop|too many hops|hop count exceeded|loop detected|temporary (lookup|dns) failure|dns (lookup )?(timeout|failure|error)|servfail|could not look up|malformed or unexpected name server reply|remote server (is )?not responding|no answer/i,
  ],
  [
    'policy-violation',
    /policy|not permitted|not allowed|prohibited|relay(ing)? (access )?(denied|not permitted|not allowed|prohibited)|relay not|unable to relay|we do not relay|not authori[sz]ed|administrative(ly)? prohibit|access denied|rejected (by|for|due to|because)|refused|denied|not accepted|sender (address )?rejected|sender verify failed|sender (address )?(domain )?(must exist|not found|unknown|invalid)|from address rejected|(sender|from) domain|greylist|grey ?listed|messagerejected/i,
  ],
  [
    'system-error',
    /system (error|failure|problem|not available|config)|internal (server )?error|local (configuration|config) error|configuration error|server error|temporary (local )?(problem|failure|error)|temporarily unavailable|service (temporarily )?(not )?(available|unavailable)|resources|insufficient system|out of memory|i\/o error|mail system (problem|error)|processing error|unexpected error|try again|routing error|unable to deliver|transaction failed|misconfigur|loops? back to myself|cannot store|could not store|storage (error|failure)|database error|backend/i,
  ],
];

/** The first reason the words name, or null. */
function reasonFromText(text: string | null | undefined): BounceReason | null {
  if (!text) return null;
  for (const [reason, pattern] of TEXT_RULES) if (pattern.test(text)) return reason;
  return null;
}

/** The reason an enhanced status code (RFC 3463) names, or null when it names none in particular. */
function reasonFromStatus(status: string | null | undefined): BounceReason | null {
  const match = /^([245])\.(\d{1,3})\.(\d{1,3})$/.exec(status ?? '');
  if (!match) return null;
  const subject = Number(match[2]);
  const detail = Number(match[3]);
  switch (subject) {
    case 1:
      if (detail === 1 || detail === 3) return 'user-unknown';
      if (detail === 2) return 'host-unknown';
      if (detail === 6) return 'has-moved';
      if (detail === 10) return 'not-accepting-mail';
      if (detail === 7 || detail === 8) return 'policy-violation';
      return null;
    case 2:
      if (detail === 1) return 'suspended';
      if (detail === 2) return 'mailbox-full';
      if (detail === 3) return 'message-too-big';
      return null;
    case 3:
      if (detail === 4) return 'message-too-big';
      if (detail === 1) return 'system-error';
      return detail === 0 ? null : 'system-error';
    case 4:
      if (detail === 7) return 'expired';
      if (detail === 4) return 'host-unknown';
      if (detail === 3) return 'network-error';
      return detail === 0 ? null : 'network-error';
    case 5:
      return null;
    case 6:
      return 'content-error';
    case 7:
      if (detail === 1) return 'blocked';
      if (detail >= 5 && detail <= 9) return 'security-error';
      if (detail >= 20 && detail <= 27) return 'security-error';
      if (detail === 28) return 'rate-limited';
      return detail === 0 ? null : 'policy-violation';
    default:
      return null;
  }
}

/** The reason a basic SMTP reply code names, when nothing better is known. */
function reasonFromReplyCode(code: string | null): BounceReason | null {
  switch (code) {
    case '551':
      return 'has-moved';
    case '552':
    case '452':
      return 'mailbox-full';
    case '421':
    case '451':
      return 'system-error';
    default:
      return null;
  }
}

const ENHANCED_STATUS = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?!\.?\d)/;
const REPLY_CODE = /(?:^|[^\d.#-])([245][0-5]\d)(?=[ -]|$)/m;

/**
 * The verdict on a rejection already seen in an SMTP conversation (our own transport's 4xx/5xx):
 * the same reasons as a bounce report. `permanent` defaults to the code's class.
 */
export function classifySmtpResponse(response: string, recipient: string | null = null): Verdict {
  return bounceVerdict({ recipient, status: null, diagnostic: response, action: null, humanText: null });
}

type SmtpCommand = 'MAIL' | 'RCPT' | 'DATA';

/**
 * The SMTP command a notice says the receiver refused at: Postfix "(in reply to end of DATA
 * command)", Exim "after end of data", Sendmail and Courier ">>> DATA", qmail "failed after I sent
 * the message". Null when it does not say.
 */
function smtpCommandIn(text: string): SmtpCommand | null {
  if (
    /in reply to (end of )?data command|after end of data|^\s*>>> (data|\.)\s*$|failed after i sent the message/im.test(
      text,
    )
  )
    return 'DATA';
  if (/in reply to rcpt to command|after rcpt to|^\s*>>> rcpt to/im.test(text)) return 'RCPT';
  if (/in reply to mail from command|after mail from|^\s*>>> mail from/im.test(text)) return 'MAIL';
  return null;
}

function bounceVerdict(input: {
  recipient: string | null;
  status: string | null;
  diagnostic: string | null;
  action: string | null;
  humanText: string | null;
  originalMessageId?: string | null;
  /** Where the notice may name the SMTP command the receiver refused at (read only when it matters). */
  commandText?: string;
}): Verdict {
  const diagnostic = input.diagnostic ? clean(input.diagnostic).slice(0, 1000) : null;
  const enhanced = ENHANCED_STATUS.exec(diagnostic ?? '');
  const replyCode = REPLY_CODE.exec(diagnostic ?? '')?.[1] ?? null;
  // The report's Status field wins; else the code the diagnostic quotes. x.0.0 codes say little.
  const status = input.status ?? (enhanced ? enhanced[0] : replyCode);
  const permanent = status ? status.startsWith('5') : input.action !== 'delayed';
  const vague = !status || /^\d\.0\.0$/.test(status);
  let reason =
    reasonFromText(diagnostic) ??
    (vague ? null : reasonFromStatus(status)) ??
    reasonFromText(input.humanText) ??
    reasonFromStatus(status) ??
    reasonFromReplyCode(replyCode);
  // A temporary failure that the sending server gave up on: the message expired in its queue.
  if (!reason && input.action === 'failed' && status?.startsWith('4')) reason = 'expired';
  // x.4.7 is "delivery time expired": the connection or system trouble along the way is history.
  if (/^[45]\.4\.7$/.test(status ?? '') && (!reason || reason === 'network-error' || reason === 'system-error'))
    reason = 'expired';
  // A recipient accepted at RCPT and refused after DATA with the bare words "user unknown" (no
  // x.1.1 status) is a filter speaking, not a missing mailbox (sisimai's Filtered rule): the
  // Japanese carriers answer so for senders the recipient filters. Words that say the account
  // does not exist keep it user-unknown.
  if (
    reason === 'user-unknown' &&
    smtpCommandIn(input.commandText ?? '') === 'DATA' &&
    !/^[45]\.1\.1$/.test(status ?? '') &&
    !/(?<![\d.])[45]\.1\.1(?![\d.])/.test(diagnostic ?? '') &&
    !/(does not|doesn't|not) exist|doesn't have an? |does not have an? |not found|no such/i.test(diagnostic ?? '')
  )
    reason = 'filtered';
  reason ??= 'undetermined';
  return {
    kind: 'bounce',
    reason,
    hard: permanent && HARD.has(reason),
    recipient: input.recipient,
    originalMessageId: input.originalMessageId ?? null,
    status,
    diagnostic,
    feedbackType: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers over text
// ---------------------------------------------------------------------------------------------

function clean(text: string): string {
  return text.replaceAll('\u0000', '').replace(/\s+/g, ' ').trim();
}

function htmlToText(html: string): string {
  return html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|tr|li|h\d)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

const ADDRESS =
  /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+/;
const ADDRESS_G = new RegExp(ADDRESS.source, 'g');

/** An address out of `rfc822; <a@b>`, `"Name" <a@b>` or `a@b`. */
export function addressIn(value: string | null | undefined): string | null {
  if (!value) return null;
  const match = ADDRESS.exec(value);
  const address = match?.[0].toLowerCase().replace(/\.$/, '');
  return address && !address.includes('\u0000') ? address : null;
}

function reportField(block: string, name: string): string | null {
  const match = new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t]+.*)*)`, 'im').exec(block);
  const value = match?.[1] ? clean(match[1]) : '';
  return value === '' ? null : value;
}

function messageIdIn(text: string | null | undefined): string | null {
  if (!text) return null;
  const match = /^Message-ID:[ \t]*(?:\r?\n[ \t]+)?(<[^<>\s]{1,990}>)/im.exec(text);
  // A Message-ID holding a NUL character is none of ours (and Postgres could not look it up).
  return match?.[1] && !match[1].includes('\u0000') ? match[1] : null;
}

/** Senders of feedback loop reports that come without an ARF report part. */
const COMPLAINT_SENDER = /staff@hotmail\.com|complaints@email-abuse\.amazonses\.com/i;

/** An address a complaint names, unless the loop redacted it (AOL's "redacted@aol.com"). */
function complainant(value: string | null | undefined): string | null {
  const address = addressIn(value);
  return address && !/^redacted$/i.test(address.split('@')[0] ?? '') ? address : null;
}

/** Addresses that are the reporting system's own, never the recipient a notice is about. */
const SYSTEM_LOCALPART =
  /^(mailer-daemon|postmaster|mail-daemon|maildaemon|mailerdaemon|double-bounce|bounce|bounces|noreply|no-reply|nobody|root|abuse|administrator|mdaemon|notifications?)$/i;

// ---------------------------------------------------------------------------------------------
// The classifier
// ---------------------------------------------------------------------------------------------

const BOUNCE_SENDER =
  /mailer-daemon|mail-daemon|postmaster|mail delivery (subsystem|system|service)|mail administrator|mail ?system|delivery (status|subsystem|notification)|microsoftexchange|mailer_daemon|mdaemon|mail router|smtp gateway|administrative mail|system administrator|returned mail|double-bounce|nobody@/i;
const BOUNCE_SUBJECT =
  /undeliver|undelivered|not delivered|delivery (status notification|failure|failed|has failed|notification|problem|error|incomplete)|failure notice|returned mail|mail delivery failed|could not be delivered|non[- ]?deliver|\bndr\b|returned to sender|permanent error|mail system error|message not delivered|delivery report|failed delivery|unzustellbar|nicht zustellbar|non remis|no entregado|non recapitato|onbestelbaar|niedostarczon|warning: message .* delayed|rejected:|mail returned|message you sent|delivery notification|error sending|could not send|message bounced|bounced mail/i;
const AUTO_REPLY_SUBJECT =
  /^(re:\s*)?(auto(matic|matische)?[- ]?(reply|response|antwort|answer)|auto:|autoreply|out of (the )?office|ooo\b|away from (the )?office|on vacation|vacation|abwesenheit|réponse automatique|respuesta automática|risposta automatica|absence|automatisch antwoord|i am (currently )?(out|away)|out-of-office)/i;

/** Where a notice stops talking and starts quoting the returned message. */
const QUOTE_MARKER =
  /^(-{2,}.{0,40}(below this line|original message|copy of the message|returned message|unsent message|undelivered message|original header|message headers follow|returned content|header of the message).*|-+ ?(original message|forwarded message) ?-+|Original message headers:|------ This is a copy of the message.*|--- Below this line is a copy of the message\.|Below is a copy of the original message.*|Received: from .*)$/im;

/** Patterns that name the failed recipient in the notices of systems that send no DSN. */
const NOTICE_RECIPIENT: RegExp[] = [
  // CommuniGate Pro: "Failed to deliver to 'user@example.com'"
  /failed to deliver to '([^'\s]+@[^'\s]+)'/i,
  // qmail, Yahoo, Postfix (plain), OpenSMTPD, Courier: "<user@example.com>:"
  /^[ \t]*<([^<>\s]+@[^<>\s]+)>:/m,
  // Exim: "The following address(es) failed:\n\n  user@example.com"
  /following address(?:\(es\)|es)? failed:\s*\n\s*<?([^\s<>:]+@[^\s<>:]+)/i,
  // Sendmail: "----- The following addresses had permanent fatal errors -----\n<user@example.com>"
  /following addresses had (?:permanent fatal errors|transient non-fatal errors|delivery problems) -+\s*\n\s*<?([^\s<>]+@[^\s<>]+?)>?\s/i,
  // Gmail (text), Google Groups: "Delivery to the following recipient(s) failed permanently:\n\n  user@x"
  /delivery to the following recipients? (?:failed|has been delayed)[^\n]*:\s*\n\s*<?([^\s<>]+@[^\s<>]+?)>?\s/i,
  // Exchange 2003/2007, GroupWise, Domino, MDaemon: "...cannot be reached:\n\n  user@x on ..."
  /(?:could not be delivered to|was not delivered to|cannot be reached|could not be reached|failed to deliver to|delivery has failed to these recipients or (?:groups|distribution lists)|not be delivered to the following recipients?|unable to deliver (?:your )?message to)[^\n]*:?\s*\n\s*(?:['"]?[^\n@<]*['"]?\s*)?<?([^\s<>'"()]+@[^\s<>'"()]+?)>?[\s.(]/i,
  // "Your message to user@x couldn't be delivered." (Microsoft 365), "for user@x" (Mimecast)
  /(?:message to|message for|delivery to|recipient|address|to:)\s*<?([^\s<>'"(),;]+@[^\s<>'"(),;]+?)>?[\s.,;:)]/i,
];

export interface ClassifyOptions {
  /** Our own addresses (the sender, the return path): never taken for the failed recipient. */
  ownAddresses?: string[];
}

/**
 * Reads a message that came back to us: an RFC 3464 DSN, an RFC 5965 ARF complaint, an RFC 3834
 * auto-reply, or the plain notices of the mail systems that send neither. Headers and MIME are
 * split with string operations only (mime-lite.ts); nothing is fully parsed.
 */
export function classify(raw: Buffer | string, options: ClassifyOptions = {}): Verdict {
  const { headers, parts } = readMessage(raw);
  const topType = headers.get('content-type')?.toLowerCase() ?? '';
  const reportType = /report-type=["]?([a-z-]+)/.exec(topType)?.[1] ?? null;
  const own = new Set((options.ownAddresses ?? []).map((a) => a.toLowerCase()));
  const quoted = parts.find(
    (p) =>
      p.type === 'message/rfc822' ||
      p.type === 'text/rfc822-headers' ||
      p.type === 'message/rfc822-headers' ||
      p.type === 'message/global' ||
      p.type === 'message/global-headers',
  );
  const quotedHeaders = quoted ? parseHeaders(splitHead(quoted.body).head) : null;
  const quotedMessageId = messageIdIn(quoted?.body);

  // ARF complaint (RFC 5965), and the feedback loops that send the complained-of message without
  // a report part (Microsoft JMRP from staff@hotmail.com, Amazon SES forwarding by email).
  const feedback =
    parts.find((p) => p.type === 'message/feedback-report') ??
    (reportType === 'feedback-report' ? parts.find((p) => /^feedback-type:/im.test(p.body.slice(0, 2000))) : undefined);
  const from = decodeWords(headers.get('from') ?? '');
  const subject = decodeWords(headers.get('subject') ?? '');
  const forwardedComplaint =
    quoted !== undefined &&
    (COMPLAINT_SENDER.test(from) ||
      /^complaint about message from /i.test(subject) ||
      quotedHeaders?.has('x-hmxmroriginalrecipient') === true);
  if (feedback || reportType === 'feedback-report' || forwardedComplaint) {
    const report = feedback?.body ?? '';
    const feedbackType = reportField(report, 'Feedback-Type')?.toLowerCase() ?? 'abuse';
    // A "not-spam" report says the mail was wanted; an RFC 6591 auth-failure report is about our
    // authentication. Neither is the recipient complaining.
    if (feedbackType === 'not-spam' || feedbackType === 'auth-failure') return { ...NOTHING, feedbackType };
    const recipient =
      [
        reportField(report, 'Original-Rcpt-To'),
        reportField(report, 'Removal-Recipient'),
        quotedHeaders?.get('x-hmxmroriginalrecipient'),
        quotedHeaders?.get('to'),
      ]
        .map(complainant)
        .find((address) => address !== null) ?? null;
    return { ...NOTHING, kind: 'complaint', recipient, originalMessageId: quotedMessageId, feedbackType };
  }

  // DSN (RFC 3464; message/global-delivery-status is RFC 6533's).
  const dsn = parts.find((p) => p.type === 'message/delivery-status' || p.type === 'message/global-delivery-status');
  const human = humanText(parts, quoted);
  if (dsn) return fromDsn(dsn.body, headers, human, quotedMessageId ?? messageIdIn(human.rest));

  const returnPath = headers.get('return-path') ?? '';
  const failedRecipients = headers.get('x-failed-recipients');
  const bounceLike =
    failedRecipients !== undefined ||
    (BOUNCE_SENDER.test(from) && !AUTO_REPLY_SUBJECT.test(subject)) ||
    BOUNCE_SUBJECT.test(subject) ||
    (returnPath.replace(/\s/g, '') === '<>' && /delivery|deliver|failed|error|permanent|bounce/i.test(human.notice));

  if (!bounceLike) {
    if (isAutoReply(headers, subject)) {
      return {
        ...NOTHING,
        kind: 'auto-reply',
        recipient: addressIn(from),
        originalMessageId: firstMessageId(headers.get('in-reply-to')) ?? firstMessageId(headers.get('references')),
      };
    }
    return NOTHING;
  }

  // A notice in plain words: find the recipient, the error line, the quoted Message-ID.
  const notice = human.notice;
  const exclude = (address: string | null) =>
    address !== null &&
    (own.has(address) ||
      SYSTEM_LOCALPART.test(address.split('@')[0] ?? '') ||
      address === addressIn(headers.get('to')));
  let recipient = addressIn(failedRecipients);
  for (const pattern of NOTICE_RECIPIENT) {
    if (recipient) break;
    const found = addressIn(pattern.exec(notice)?.[1]);
    if (found && !exclude(found)) recipient = found;
  }
  if (!recipient) {
    for (const match of notice.matchAll(ADDRESS_G)) {
      const found = addressIn(match[0]);
      if (found && !exclude(found)) {
        recipient = found;
        break;
      }
    }
  }
  recipient ??= addressIn(quotedHeaders?.get('to'));
  if (recipient && own.has(recipient)) recipient = null;
  const delayed = /delayed|delay|not yet been delivered|will (continue|retry|keep trying)|still trying|warning:/i.test(
    subject + ' ' + notice.slice(0, 600),
  );
  const verdict = bounceVerdict({
    recipient,
    status: null,
    diagnostic: errorLine(notice),
    action: delayed ? 'delayed' : 'failed',
    humanText: notice,
    commandText: notice,
    originalMessageId: quotedMessageId ?? messageIdIn(human.rest),
  });
  if (delayed && !verdict.status?.startsWith('5')) return { ...verdict, kind: 'other', hard: false };
  return verdict;
}

function firstMessageId(value: string | undefined): string | null {
  return /<[^<>\s]{1,990}>/.exec(value ?? '')?.[0] ?? null;
}

function isAutoReply(headers: Headers, subject: string): boolean {
  const autoSubmitted = headers.get('auto-submitted')?.toLowerCase() ?? '';
  if (autoSubmitted.startsWith('auto-replied')) return true;
  if (headers.has('x-autoreply') || headers.has('x-autorespond') || headers.has('x-autoreply-from')) return true;
  if (/auto[_-]?reply/i.test(headers.get('precedence') ?? '')) return true;
  if (/^(oof|autoreply)/i.test(headers.get('x-auto-response-suppress') ?? '') && AUTO_REPLY_SUBJECT.test(subject))
    return true;
  if (headers.get('x-ms-exchange-inbox-rules-loop') !== undefined && AUTO_REPLY_SUBJECT.test(subject)) return true;
  return AUTO_REPLY_SUBJECT.test(subject) && autoSubmitted !== 'no';
}

/**
 * The human-readable part of a notice (up to where it starts quoting the returned message), and
 * what follows it (where quoted headers, with the Message-ID, are looked for).
 */
function humanText(parts: MimePart[], quoted: MimePart | undefined): { notice: string; rest: string } {
  const texts = parts.filter(
    (p) => p !== quoted && (p.type === 'text/plain' || p.type === 'text/html' || p.type === 'text/enriched'),
  );
  const plain = texts.find((p) => p.type === 'text/plain') ?? texts[0];
  if (!plain) return { notice: '', rest: '' };
  const text = plain.type === 'text/html' ? htmlToText(plain.body) : plain.body;
  const marker = QUOTE_MARKER.exec(text);
  const notice = marker ? text.slice(0, marker.index) : text;
  const rest = marker ? text.slice(marker.index) : '';
  // The notice part itself may also hold the quoted message (one text/plain with both).
  return { notice: notice.slice(0, 8000), rest: rest.slice(0, 64 * 1024) };
}

/** The line of a notice that carries the receiver's error (an SMTP reply, a status, a reason). */
function errorLine(notice: string): string | null {
  const lines = notice.split(/\r?\n/);
  const codeLine = lines.findIndex((l) => /(^|[^\d.])[245]\d\d[ -]|(?<![\d.])[245]\.\d{1,3}\.\d{1,3}(?!\.?\d)/.test(l));
  if (codeLine >= 0) {
    // Reply lines continue on the next indented lines ("550-5.1.1 ...", "    ...").
    let text = lines[codeLine] ?? '';
    for (const next of lines.slice(codeLine + 1, codeLine + 4)) {
      if (/^\s+\S/.test(next) && !/^\s*<?[^\s@]+@[^\s@]+>?:?\s*$/.test(next)) text += ' ' + next.trim();
      else break;
    }
    return clean(text);
  }
  // No code: the first line that gives a reason in words.
  const reasonLine = lines.find((l) => reasonFromText(l) !== null && !/^\s*(subject|date|to|from):/i.test(l));
  return reasonLine ? clean(reasonLine) : null;
}

/** A DSN: the first recipient that failed (else the first one), its status and diagnostic. */
function fromDsn(
  body: string,
  headers: Headers,
  human: { notice: string; rest: string },
  originalMessageId: string | null,
): Verdict {
  // A DSN body is a per-message block then one block per recipient, separated by empty lines.
  const blocks = body.split(/\r?\n[ \t]*\r?\n/).filter((b) => /^(final|original)-recipient:/im.test(b));
  const action = (block: string) => reportField(block, 'Action')?.toLowerCase() ?? null;
  const block =
    blocks.find((b) => action(b) === 'failed') ?? blocks.find((b) => action(b) === 'delayed') ?? blocks[0] ?? body;
  const recipientAction = action(block);
  const recipient =
    addressIn(reportField(block, 'Final-Recipient')) ??
    addressIn(reportField(block, 'Original-Recipient')) ??
    addressIn(headers.get('x-failed-recipients'));
  const status = /[245]\.\d{1,3}\.\d{1,3}/.exec(reportField(block, 'Status') ?? '')?.[0] ?? null;
  const diagnostic = (reportField(block, 'Diagnostic-Code') ?? '').replace(/^(smtp|x-[\w-]+|x-unix);\s*/i, '') || null;
  const base = { ...NOTHING, recipient, originalMessageId, status, diagnostic };

  if (recipientAction === 'delivered' || recipientAction === 'relayed' || recipientAction === 'expanded')
    return { ...base, kind: 'delivered', diagnostic: diagnostic ? clean(diagnostic) : null };
  const verdict = bounceVerdict({
    recipient,
    status,
    diagnostic: diagnostic ?? errorLine(human.notice),
    action: recipientAction,
    humanText: human.notice,
    commandText: human.notice,
    originalMessageId,
  });
  // A delay notice is a warning, not a bounce: the sending server is still trying.
  if (recipientAction === 'delayed') return { ...verdict, kind: 'other', hard: false };
  return verdict;
}
