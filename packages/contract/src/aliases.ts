import { z } from 'zod';
import { INT32_MAX, rowIdSchema } from './common.ts';
import { dnsRecordStatuses } from './domains.ts';

/*
 * Email aliases and forwarding (spec part 2 §3 Email alias, Forwarding rule, Forwarding destination,
 * Forwarding stats; §5 Alias (simple and advanced), Forwarding rule, Destination, Alias tests; §7).
 *
 * Confirmation: every address mail is forwarded to (an alias's destination, a forwarding destination,
 * an address in a rule's forwardTo) receives nothing until it followed the signed link mailed to it.
 * An address is confirmed once per account: confirming it for one alias confirms it for all of them.
 * The account's own (confirmed) sign-up address counts as confirmed.
 */

/** Spec part 2 §5 texts. */
export const ALIAS_REQUIRED = 'Alias is required';
export const INVALID_ALIAS_FORMAT = 'Invalid alias format';
export const ALIAS_TOO_LONG = 'Alias must be 64 characters or less';
export const DESTINATION_REQUIRED = 'Destination email is required';
/** Simple form's text for a destination that is not an address. */
export const INVALID_DESTINATION_SIMPLE = 'Please enter a valid email address';
/** Advanced form's, rules' and destinations' text for an address that is not one. */
export const INVALID_EMAIL_ADDRESS = 'Invalid email address';
export const RULE_NAME_REQUIRED = 'Rule name is required';
export const NO_DESTINATION_SET = 'No Destination Set';
/** §8 texts the screens show on failure. */
export const ALIAS_CREATE_FAILED = 'Failed to create email alias. Please try again.';
export const ALIAS_TEST_FAILED_TITLE = 'Test Failed';
export const ALIAS_TEST_FAILED = 'Failed to send test email. Please check your alias configuration.';
export const FORWARDING_TEST_FAILED_TITLE = 'Forwarding Test Failed';
export const FORWARDING_TEST_FAILED = 'Failed to test email forwarding. Please check your configuration.';
export const ALIAS_DELETE_FAILED_TITLE = 'Delete Failed';
export const ALIAS_DELETE_FAILED = 'Failed to delete email alias. Please try again.';

/** Texts of our own where the spec gives none. */
export const PRIORITY_RANGE = 'Priority must be a number from 1 to 100';
export const WEIGHT_RANGE = 'Weight must be a number from 1 to 10';
export const ALIAS_EXISTS = 'This alias already exists on this domain';
export const CATCH_ALL_EXISTS = 'This domain already has a catch-all alias';
export const AUTO_REPLY_MESSAGE_REQUIRED = 'Auto-reply message is required';
export const RULE_ACTION_REQUIRED = 'Choose an action: forward, block or auto-reply';
export const ALIAS_ID_REQUIRED = 'Choose an alias';
/** Refused on save: the address is one of the account's own aliases that forwards back (a loop). */
export const FORWARDING_LOOP = 'This address is one of your aliases that forwards back here; that would make a loop';
export const DESTINATION_EXISTS = 'This destination is already on this alias';

/** §9 limits. */
export const ALIAS_MAX_LENGTH = 64;
export const RULE_PRIORITY_MIN = 1;
export const RULE_PRIORITY_MAX = 100;
export const DESTINATION_WEIGHT_MIN = 1;
export const DESTINATION_WEIGHT_MAX = 10;
/** How many addresses one rule may forward to. */
export const RULE_FORWARD_TO_MAX = 10;
/** How many messages an alias's activity log keeps on screen. */
export const ALIAS_ACTIVITY_LIMIT = 100;
/** How many days the Analytics chart covers. */
export const FORWARDING_STATS_DAYS = 30;
/** The catch-all alias: used only when no other alias on the domain matches. */
export const CATCH_ALL_ALIAS = '*';
/** Largest inbound message (SMTP SIZE and after DATA, webhook body). */
export const INBOUND_MAX_BYTES = 25 * 1024 * 1024;

export const forwardingTypes = ['simple', 'conditional', 'split', 'round_robin'] as const;
export const forwardingTypeSchema = z.enum(forwardingTypes, {
  error: 'Forwarding type must be one of simple, conditional, split, round_robin',
});
export type ForwardingType = z.infer<typeof forwardingTypeSchema>;

const ALIAS_FORMAT = /^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/;

/** The local part of an alias as typed: trimmed, lower-cased; `*` is the domain's catch-all. */
export const aliasNameSchema = z
  .string({ error: ALIAS_REQUIRED })
  .trim()
  .toLowerCase()
  .min(1, ALIAS_REQUIRED)
  .max(ALIAS_MAX_LENGTH, ALIAS_TOO_LONG)
  .refine((value) => value === '' || value === CATCH_ALL_ALIAS || ALIAS_FORMAT.test(value), INVALID_ALIAS_FORMAT);

/** An address, trimmed and lower-cased, with the given text when it is not one. */
export function forwardAddressSchema(message: string) {
  return z
    .string({ error: message })
    .trim()
    .max(254, message)
    .pipe(z.email(message))
    .transform((value) => value.toLowerCase());
}

const descriptionSchema = z.string().trim().max(500, 'Description must be at most 500 characters');
const autoReplyMessageSchema = z.string().trim().max(5000, 'Auto-reply message must be at most 5000 characters');

/** An alias's id in a body (`aliasId`). */
export const aliasIdSchema = rowIdSchema(ALIAS_ID_REQUIRED);

/**
 * POST /api/domains/:id/aliases. The simple form sends alias and destination (required, 'Please
 * enter a valid email address'); the advanced form also sends forwardingType (which marks it as the
 * advanced form), description, autoReply and autoReplyMessage, and its destination is optional
 * ('Invalid email address'). Answers 201 with the alias; 409 ALIAS_EXISTS or CATCH_ALL_EXISTS.
 */
export const createAliasBodySchema = z
  .object(
    {
      alias: aliasNameSchema,
      destination: z.string({ error: INVALID_EMAIL_ADDRESS }).nullable().optional(),
      forwardingType: forwardingTypeSchema.optional(),
      description: descriptionSchema.nullable().optional(),
      autoReply: z.boolean({ error: 'autoReply must be true or false' }).optional(),
      autoReplyMessage: autoReplyMessageSchema.nullable().optional(),
    },
    { error: ALIAS_REQUIRED },
  )
  .transform((body, ctx) => {
    const advanced = body.forwardingType !== undefined;
    const typed = (body.destination ?? '').trim();
    let destination: string | null = null;
    if (typed === '') {
      if (!advanced) ctx.addIssue({ code: 'custom', path: ['destination'], message: DESTINATION_REQUIRED });
    } else {
      const parsed = forwardAddressSchema(advanced ? INVALID_EMAIL_ADDRESS : INVALID_DESTINATION_SIMPLE).safeParse(
        typed,
      );
      if (parsed.success) destination = parsed.data;
      else ctx.addIssue({ code: 'custom', path: ['destination'], message: parsed.error.issues[0]?.message ?? '' });
    }
    const autoReply = body.autoReply ?? false;
    const autoReplyMessage = body.autoReplyMessage?.trim() || null;
    if (autoReply && autoReplyMessage === null)
      ctx.addIssue({ code: 'custom', path: ['autoReplyMessage'], message: AUTO_REPLY_MESSAGE_REQUIRED });
    return {
      alias: body.alias,
      destination,
      forwardingType: body.forwardingType ?? ('simple' as ForwardingType),
      description: body.description?.trim() || null,
      autoReply,
      autoReplyMessage,
    };
  });
export type CreateAliasBody = z.input<typeof createAliasBodySchema>;
export type CreateAliasInput = z.output<typeof createAliasBodySchema>;

/**
 * PATCH /api/email-aliases/:id (the Overview tab's settings, and switching an alias off). The alias
 * name itself does not change. A new destination is Pending until confirmed; `destination: null`
 * (or '') removes it.
 */
export const updateAliasBodySchema = z
  .object({
    destination: z.string({ error: INVALID_EMAIL_ADDRESS }).nullable().optional(),
    forwardingType: forwardingTypeSchema.optional(),
    description: descriptionSchema.nullable().optional(),
    autoReply: z.boolean({ error: 'autoReply must be true or false' }).optional(),
    autoReplyMessage: autoReplyMessageSchema.nullable().optional(),
    isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
  })
  .transform((body, ctx) => {
    let destination: string | null | undefined;
    if (body.destination !== undefined) {
      const typed = (body.destination ?? '').trim();
      if (typed === '') destination = null;
      else {
        const parsed = forwardAddressSchema(INVALID_EMAIL_ADDRESS).safeParse(typed);
        if (parsed.success) destination = parsed.data;
        else ctx.addIssue({ code: 'custom', path: ['destination'], message: INVALID_EMAIL_ADDRESS });
      }
    }
    return {
      ...(destination !== undefined ? { destination } : {}),
      ...(body.forwardingType !== undefined ? { forwardingType: body.forwardingType } : {}),
      ...(body.description !== undefined ? { description: body.description?.trim() || null } : {}),
      ...(body.autoReply !== undefined ? { autoReply: body.autoReply } : {}),
      ...(body.autoReplyMessage !== undefined ? { autoReplyMessage: body.autoReplyMessage?.trim() || null } : {}),
      ...(body.isActive !== undefined ? { isActive: body.isActive } : {}),
    };
  });
export type UpdateAliasBody = z.input<typeof updateAliasBodySchema>;
export type UpdateAliasInput = z.output<typeof updateAliasBodySchema>;

/** An email alias (spec §3) with its domain and the state of its destination's confirmation. */
export const emailAliasSchema = z.object({
  id: z.number().int(),
  domainId: z.number().int(),
  /** The local part ('sales', or '*' for the catch-all). */
  alias: z.string(),
  /** alias@domain, as the screens display it ('*@domain' for the catch-all). */
  address: z.string(),
  destination: z.string().nullable(),
  /**
   * §4: Pending until verified, then Active. True when the destination is confirmed; an alias without
   * a destination is verified once at least one of its forwarding destinations is confirmed.
   */
  isVerified: z.boolean(),
  /** The user's switch; an alias that is off refuses mail (550) like an unknown one. */
  isActive: z.boolean(),
  /**
   * Whether the alias's domain is verified (its DKIM record carries the account's key): until then
   * the alias receives nothing, so the screens show it Pending, never Active (issue 34).
   */
  domainVerified: z.boolean(),
  createdAt: z.string(),
  forwardingType: forwardingTypeSchema,
  description: z.string().nullable(),
  autoReply: z.boolean(),
  autoReplyMessage: z.string().nullable(),
  isCatchAll: z.boolean(),
  /** Null without a destination. */
  destinationConfirmed: z.boolean().nullable(),
  /** When the destination's last confirmation link went out; null when none was needed. */
  confirmationSentAt: z.string().nullable(),
});
export type EmailAlias = z.infer<typeof emailAliasSchema>;
export const emailAliasListSchema = z.array(emailAliasSchema);

/** `?aliasId=` of the rules, destinations and stats calls; without it, every alias of the account. */
export const aliasFilterQuerySchema = z.object({
  aliasId: z.coerce
    .number({ error: 'aliasId must be a number' })
    .int('aliasId must be an alias id')
    .positive('aliasId must be an alias id')
    .max(INT32_MAX, 'aliasId must be an alias id')
    .optional(),
});
export type AliasFilterQuery = z.input<typeof aliasFilterQuerySchema>;

/** A rule's conditions: every one given must hold; none given matches every message. */
export const ruleConditionsSchema = z.object(
  {
    /** The sender's domain, or a parent of it ('example.com' matches 'mail.example.com'). */
    fromDomain: z
      .string()
      .trim()
      .toLowerCase()
      .max(253, 'From domain must be at most 253 characters')
      .optional()
      .transform((value) => value || undefined),
    /** Case-insensitive substring of the subject. */
    subjectContains: z
      .string()
      .trim()
      .max(200, 'Subject text must be at most 200 characters')
      .optional()
      .transform((value) => value || undefined),
    hasAttachment: z.boolean({ error: 'hasAttachment must be true or false' }).optional(),
  },
  { error: 'Conditions must be an object' },
);
export type RuleConditions = z.output<typeof ruleConditionsSchema>;

/** A rule's actions: block stops the message; otherwise forwardTo and autoReply both apply. */
export const ruleActionsSchema = z.object(
  {
    forwardTo: z
      .array(forwardAddressSchema(INVALID_EMAIL_ADDRESS), { error: INVALID_EMAIL_ADDRESS })
      .max(RULE_FORWARD_TO_MAX, `At most ${RULE_FORWARD_TO_MAX} addresses`)
      .default([]),
    block: z.boolean({ error: 'block must be true or false' }).default(false),
    autoReply: z.boolean({ error: 'autoReply must be true or false' }).default(false),
    autoReplyMessage: autoReplyMessageSchema
      .nullable()
      .optional()
      .transform((value) => value || null),
  },
  { error: 'Actions must be an object' },
);
export type RuleActions = z.output<typeof ruleActionsSchema>;

const priorityInputSchema = z
  .number({ error: PRIORITY_RANGE })
  .int(PRIORITY_RANGE)
  .min(RULE_PRIORITY_MIN, PRIORITY_RANGE)
  .max(RULE_PRIORITY_MAX, PRIORITY_RANGE);

/** POST /api/forwarding-rules. Answers 201 with the rule. */
export const createRuleBodySchema = z
  .object(
    {
      name: z
        .string({ error: RULE_NAME_REQUIRED })
        .trim()
        .min(1, RULE_NAME_REQUIRED)
        .max(100, 'Rule name must be at most 100 characters'),
      priority: priorityInputSchema,
      isActive: z.boolean({ error: 'isActive must be true or false' }).default(true),
      conditions: ruleConditionsSchema.prefault({}),
      actions: ruleActionsSchema,
      aliasId: aliasIdSchema,
    },
    { error: RULE_NAME_REQUIRED },
  )
  .superRefine((body, ctx) => {
    const { actions } = body;
    if (!actions.block && actions.forwardTo.length === 0 && !actions.autoReply)
      ctx.addIssue({ code: 'custom', path: ['actions'], message: RULE_ACTION_REQUIRED });
    if (actions.autoReply && !actions.autoReplyMessage)
      ctx.addIssue({ code: 'custom', path: ['actions', 'autoReplyMessage'], message: AUTO_REPLY_MESSAGE_REQUIRED });
  });
export type CreateRuleBody = z.input<typeof createRuleBodySchema>;
export type CreateRuleInput = z.output<typeof createRuleBodySchema>;

/**
 * PATCH /api/forwarding-rules/:id: any of a rule's fields. Conditions and actions are replaced as a
 * whole (the edit form sends them complete), so the actions carry the same rules as at creation.
 */
export const updateRuleBodySchema = z
  .object({
    name: z
      .string({ error: RULE_NAME_REQUIRED })
      .trim()
      .min(1, RULE_NAME_REQUIRED)
      .max(100, 'Rule name must be at most 100 characters')
      .optional(),
    isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
    priority: priorityInputSchema.optional(),
    conditions: ruleConditionsSchema.optional(),
    actions: ruleActionsSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const { actions } = body;
    if (!actions) return;
    if (!actions.block && actions.forwardTo.length === 0 && !actions.autoReply)
      ctx.addIssue({ code: 'custom', path: ['actions'], message: RULE_ACTION_REQUIRED });
    if (actions.autoReply && !actions.autoReplyMessage)
      ctx.addIssue({ code: 'custom', path: ['actions', 'autoReplyMessage'], message: AUTO_REPLY_MESSAGE_REQUIRED });
  });
export type UpdateRuleBody = z.input<typeof updateRuleBodySchema>;
export type UpdateRuleInput = z.output<typeof updateRuleBodySchema>;

/** A forwarding rule (spec §3). */
export const forwardingRuleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  priority: z.number().int(),
  isActive: z.boolean(),
  conditions: z.object({
    fromDomain: z.string().optional(),
    subjectContains: z.string().optional(),
    hasAttachment: z.boolean().optional(),
  }),
  actions: z.object({
    forwardTo: z.array(z.string()),
    block: z.boolean(),
    autoReply: z.boolean(),
    autoReplyMessage: z.string().nullable(),
  }),
  aliasId: z.number().int(),
  createdAt: z.string(),
  /** Addresses in forwardTo that have not followed their confirmation link yet (they get nothing). */
  pendingForwardTo: z.array(z.string()),
});
export type ForwardingRule = z.infer<typeof forwardingRuleSchema>;
export const forwardingRuleListSchema = z.array(forwardingRuleSchema);

/** POST /api/forwarding-destinations. Answers 201 with the destination (Pending until confirmed). */
export const createDestinationBodySchema = z.object(
  {
    email: forwardAddressSchema(INVALID_EMAIL_ADDRESS),
    name: z
      .string()
      .trim()
      .max(100, 'Name must be at most 100 characters')
      .nullable()
      .optional()
      .transform((value) => value || null),
    weight: z
      .number({ error: WEIGHT_RANGE })
      .int(WEIGHT_RANGE)
      .min(DESTINATION_WEIGHT_MIN, WEIGHT_RANGE)
      .max(DESTINATION_WEIGHT_MAX, WEIGHT_RANGE)
      .default(1),
    aliasId: aliasIdSchema,
  },
  { error: INVALID_EMAIL_ADDRESS },
);
export type CreateDestinationBody = z.input<typeof createDestinationBodySchema>;
export type CreateDestinationInput = z.output<typeof createDestinationBodySchema>;

/** PATCH /api/forwarding-destinations/:id: switch a destination on or off, or change its weight. */
export const updateDestinationBodySchema = z.object({
  isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
  weight: z
    .number({ error: WEIGHT_RANGE })
    .int(WEIGHT_RANGE)
    .min(DESTINATION_WEIGHT_MIN, WEIGHT_RANGE)
    .max(DESTINATION_WEIGHT_MAX, WEIGHT_RANGE)
    .optional(),
});
export type UpdateDestinationBody = z.input<typeof updateDestinationBodySchema>;

/** A forwarding destination (spec §3) and its confirmation. */
export const forwardingDestinationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  weight: z.number().int(),
  isActive: z.boolean(),
  createdAt: z.string(),
  aliasId: z.number().int(),
  /** False while Pending: the address gets nothing until it follows the mailed link. */
  isConfirmed: z.boolean(),
  confirmationSentAt: z.string().nullable(),
});
export type ForwardingDestination = z.infer<typeof forwardingDestinationSchema>;
export const forwardingDestinationListSchema = z.array(forwardingDestinationSchema);

/**
 * POST /api/email-aliases/:id/resend-confirmation and POST /api/forwarding-destinations/:id/resend-confirmation:
 * mail the confirmation link again. `sent` false when the address is already confirmed.
 */
export const resendConfirmationResponseSchema = z.object({
  sent: z.boolean(),
  email: z.string(),
  confirmationSentAt: z.string().nullable(),
});
export type ResendConfirmationResponse = z.infer<typeof resendConfirmationResponseSchema>;

/** One day of the Analytics chart (UTC day). */
export const forwardingDaySchema = z.object({
  /** YYYY-MM-DD */
  date: z.string(),
  received: z.number().int(),
  forwarded: z.number().int(),
  blocked: z.number().int(),
  autoReplied: z.number().int(),
  failed: z.number().int(),
});
export type ForwardingDay = z.infer<typeof forwardingDaySchema>;

/**
 * GET /api/forwarding-stats?aliasId= (spec §3 Forwarding stats, from recorded events). totalForwarded
 * counts forwards the destination's server accepted; successRate = delivered / attempted in percent
 * (null when nothing was attempted). `days` is the last 30 UTC days, oldest first, today included.
 */
export const forwardingStatsSchema = z.object({
  totalForwarded: z.number().int(),
  totalBlocked: z.number().int(),
  totalAutoReplied: z.number().int(),
  successRate: z.number().nullable(),
  totalReceived: z.number().int(),
  /** Forwards attempted (accepted + failed). */
  totalAttempted: z.number().int(),
  totalFailed: z.number().int(),
  /** Messages no rule routed on a conditional alias, or with no confirmed destination. */
  totalUnrouted: z.number().int(),
  /** Test messages (Test, Test Forwarding): kept apart, counted in none of the figures above nor in days. */
  totalTests: z.number().int(),
  days: z.array(forwardingDaySchema),
});
export type ForwardingStats = z.infer<typeof forwardingStatsSchema>;

/** What became of one inbound message on one alias. */
export const aliasMessageOutcomes = [
  /** Stored, forwards queued and not all done yet. */
  'queued',
  'forwarded',
  'blocked',
  'auto_replied',
  /** Nothing routed it (conditional with no matching rule, or no confirmed destination). */
  'unrouted',
  /** Refused: a loop (too many Received headers, our own loop header) or a null sender on a reply. */
  'refused',
  /** Every forward failed (or, with no forward, the auto-reply failed). */
  'failed',
] as const;
export const aliasMessageOutcomeSchema = z.enum(aliasMessageOutcomes);
export type AliasMessageOutcome = z.infer<typeof aliasMessageOutcomeSchema>;

/** One line of an alias's activity log. */
export const aliasActivitySchema = z.object({
  id: z.number().int(),
  from: z.string(),
  subject: z.string(),
  outcome: aliasMessageOutcomeSchema,
  /** A sentence saying what happened ("Forwarded to a@x.com", "Blocked by rule Spam"). */
  detail: z.string(),
  forwardedTo: z.array(z.string()),
  ruleName: z.string().nullable(),
  autoReplied: z.boolean(),
  receivedAt: z.string(),
});
export type AliasActivity = z.infer<typeof aliasActivitySchema>;
/** GET /api/email-aliases/:id/activity: the last 100 messages, newest first. */
export const aliasActivityListSchema = z.array(aliasActivitySchema);

/** POST /api/test-alias (spec §7: alias as the full address, destination, aliasId). */
export const testAliasBodySchema = z.object(
  {
    alias: z.string({ error: ALIAS_REQUIRED }).trim().max(320).optional(),
    destination: z.string().trim().max(320).nullable().optional(),
    aliasId: aliasIdSchema,
  },
  { error: ALIAS_ID_REQUIRED },
);
export type TestAliasBody = z.input<typeof testAliasBodySchema>;

/** How many alias tests (test-alias and test-forwarding, each) an account may run a minute. */
export const ALIAS_TESTS_PER_MINUTE = 30;
/** The 429 answer of an alias test past the limit. */
export const aliasTestsLimitedMessage = (seconds: number) =>
  `You can run ${ALIAS_TESTS_PER_MINUTE} alias tests a minute. Please try again in ${seconds} seconds.`;

/** POST /api/test-forwarding (spec §7: alias, fromEmail, subject, content); aliasId when the screen has it. */
export const testForwardingBodySchema = z.object(
  {
    /** The alias's full address (alias@domain). */
    alias: z.string({ error: ALIAS_REQUIRED }).trim().min(1, ALIAS_REQUIRED).max(320),
    fromEmail: forwardAddressSchema(INVALID_EMAIL_ADDRESS),
    subject: z.string().trim().max(500, 'Subject must be at most 500 characters').default('Test forwarding'),
    content: z.string().max(100_000, 'Content must be at most 100000 characters').default(''),
    aliasId: aliasIdSchema.optional(),
  },
  { error: ALIAS_REQUIRED },
);
export type TestForwardingBody = z.input<typeof testForwardingBodySchema>;

/**
 * What a test message did, passed through the same pipeline as real mail. 400 'No Destination Set'
 * when the alias has no destination at all (no destination, no destinations, no forwarding rule).
 */
export const aliasTestResultSchema = z.object({
  /** The Message-ID of the test message. */
  messageId: z.string(),
  outcome: aliasMessageOutcomeSchema,
  /** Addresses the forward was queued to (confirmed ones only). */
  forwardedTo: z.array(z.string()),
  /** Addresses that would have received it but are not confirmed yet. */
  skippedUnconfirmed: z.array(z.string()),
  /** The rule that decided, if one matched. */
  rule: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  blocked: z.boolean(),
  autoReplied: z.boolean(),
  detail: z.string(),
});
export type AliasTestResult = z.infer<typeof aliasTestResultSchema>;

/**
 * GET /api/domains/:id/inbound-mx: the MX record the Email Forwarding tab asks the user to publish
 * when mail for the domain is to reach Sendwell's inbound SMTP server, and what DNS holds now
 * (looked up live on each call). `smtpEnabled` is false when this installation runs no inbound SMTP
 * server (INBOUND_SMTP_PORT unset): mail then arrives through the webhook only.
 */
export const inboundMxSchema = z.object({
  domainId: z.number().int(),
  domain: z.string(),
  smtpEnabled: z.boolean(),
  record: z.object({
    type: z.literal('MX'),
    host: z.string(),
    priority: z.number().int(),
    /** The mail host to point at. */
    value: z.string(),
    status: z.enum(dnsRecordStatuses),
    /** What DNS holds ("10 mx.example.net" lines); null when nothing. */
    found: z.string().nullable(),
    note: z.string().nullable(),
  }),
  checkedAt: z.string(),
});
export type InboundMx = z.infer<typeof inboundMxSchema>;
