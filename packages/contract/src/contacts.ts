import { z } from 'zod';
import { INT32_MAX, rowIdSchema } from './common.ts';
import { columnMappingParamSchema, columnMappingSchema, importTagSchema } from './contact-import.ts';

export const INVALID_EMAIL = 'Please enter a valid email address';
export const PAGE_SIZE_DEFAULT = 50;
export const PAGE_SIZE_MAX = 500;

/** A valid email, trimmed and lower-cased (emails are unique per user in lower case). */
export const contactEmailSchema = z
  .string({ error: INVALID_EMAIL })
  .trim()
  .max(254, INVALID_EMAIL)
  .pipe(z.email(INVALID_EMAIL))
  .transform((value) => value.toLowerCase());

const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null));

const requiredName = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} must be at most 100 characters`);

/** Tags arrive as an array (the form splits the comma-separated text); trimmed, empty ones dropped, no duplicates. */
export const MAX_TAG_LENGTH = 50;
export const TAG_TOO_LONG = `A tag must be at most ${MAX_TAG_LENGTH} characters`;
export const tagsSchema = z
  .array(z.string().max(MAX_TAG_LENGTH, TAG_TOO_LONG), { error: 'Tags must be a list' })
  .max(50, 'At most 50 tags')
  .transform((tags) => [...new Set(tags.map((tag) => tag.trim()).filter(Boolean))]);

/** Splits the form's comma-separated tag text into the array the API takes. */
export function parseTagText(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

const contactFields = {
  email: contactEmailSchema,
  firstName: requiredName('First name'),
  lastName: requiredName('Last name'),
  company: optionalText('Company', 200),
  jobTitle: optionalText('Job title', 200),
  phone: optionalText('Phone', 50),
  location: optionalText('Location', 200),
  notes: optionalText('Notes', 5000),
  tags: tagsSchema.optional(),
  isActive: z.boolean().optional(),
};

/** POST /api/contacts */
export const createContactBodySchema = z.object({
  ...contactFields,
  listIds: z.array(rowIdSchema('listIds must be list ids')).max(100).optional(),
});
export type CreateContactBody = z.input<typeof createContactBodySchema>;

/** PATCH /api/contacts/:id */
export const updateContactBodySchema = z.object(contactFields).partial();
export type UpdateContactBody = z.input<typeof updateContactBodySchema>;

/** A contact as the API answers it (spec part 2 §3). */
export const contactSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string().nullable(),
  jobTitle: z.string().nullable(),
  phone: z.string().nullable(),
  location: z.string().nullable(),
  notes: z.string().nullable(),
  tags: z.array(z.string()),
  isActive: z.boolean(),
  subscriptionDate: z.string(),
  createdAt: z.string(),
  engagementScore: z.number().int(),
  totalEmailsOpened: z.number().int(),
  totalEmailsClicked: z.number().int(),
  lastActivityAt: z.string().nullable(),
});
export type Contact = z.infer<typeof contactSchema>;
export const contactListResponseSchema = z.array(contactSchema);

/** GET /api/contacts/:id: the contact with the lists it belongs to. */
export const contactDetailSchema = contactSchema.extend({
  lists: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type ContactDetail = z.infer<typeof contactDetailSchema>;

/** Query of GET /api/contacts (and of list and segment member listings); the total is in X-Total-Count. */
export const contactsQuerySchema = z.object({
  search: z.string().trim().max(200, 'Search must be at most 200 characters').optional(),
  listId: z.coerce
    .number({ error: 'listId must be a number' })
    .int()
    .positive('listId must be a positive number')
    .max(INT32_MAX, 'listId must be a list id')
    .optional(),
  status: z.enum(['active', 'unsubscribed'], { error: "status must be 'active' or 'unsubscribed'" }).optional(),
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page must be 1 or more').default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int()
    .min(1, 'pageSize must be 1 or more')
    .max(PAGE_SIZE_MAX, `pageSize must be at most ${PAGE_SIZE_MAX}`)
    .default(PAGE_SIZE_DEFAULT),
});
/** GET /api/contact-lists/:id/contacts: the list comes from the path. */
export const listContactsQuerySchema = contactsQuerySchema.omit({ listId: true });
export type ContactsQuery = z.input<typeof contactsQuerySchema>;

const contactIds = z
  .array(rowIdSchema('contactIds must be a list of contact ids'), { error: 'contactIds must be a list of contact ids' })
  .min(1, 'Select at least one contact')
  .max(10_000, 'At most 10,000 contacts at a time');

/**
 * The filters of GET /api/contacts, naming every contact that matches them: "Select all N matching"
 * (issue 34) sends these instead of ids, and the server applies the action to the same rows.
 */
export const contactsMatchingSchema = contactsQuerySchema.pick({ search: true, listId: true, status: true });
export type ContactsMatching = z.input<typeof contactsMatchingSchema>;

/** The most contacts one "all matching" bulk action touches. */
export const BULK_MATCHING_MAX = 100_000;
export const BULK_MATCHING_TOO_MANY = `At most ${BULK_MATCHING_MAX.toLocaleString('en-US')} matching contacts at a time`;

/** Either the selected ids or the filters all matching contacts are named by, never both. */
const oneTarget = (body: { contactIds?: unknown; matching?: unknown }) =>
  (body.contactIds === undefined) !== (body.matching === undefined);
const ONE_TARGET = { message: 'Select at least one contact', path: ['contactIds'] };

/** POST /api/contacts/bulk-delete: the selected contacts, or all those matching the filters. */
export const bulkDeleteBodySchema = z
  .object({ contactIds: contactIds.optional(), matching: contactsMatchingSchema.optional() })
  .refine(oneTarget, ONE_TARGET);
export type BulkDeleteBody = z.input<typeof bulkDeleteBodySchema>;
/** POST /api/contacts/bulk-add-to-list and /api/contacts/bulk-remove-from-list */
export const bulkListBodySchema = z
  .object({
    contactIds: contactIds.optional(),
    matching: contactsMatchingSchema.optional(),
    listId: rowIdSchema('Choose a list'),
  })
  .refine(oneTarget, ONE_TARGET);
export type BulkListBody = z.input<typeof bulkListBodySchema>;
export const bulkResultSchema = z.object({ affected: z.number().int() });

/** A contact list (spec part 2 §3). */
export const contactListSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  subscriberCount: z.number().int(),
  createdAt: z.string(),
});
export type ContactList = z.infer<typeof contactListSchema>;
export const contactListsResponseSchema = z.array(contactListSchema);

export const LIST_NAME_REQUIRED = 'Please provide a name for the new contact list.';

/** POST /api/contact-lists */
export const createContactListBodySchema = z.object({
  name: z
    .string({ error: LIST_NAME_REQUIRED })
    .trim()
    .min(1, LIST_NAME_REQUIRED)
    .max(120, 'List name must be at most 120 characters'),
  description: optionalText('Description', 1000),
  contactIds: contactIds.optional(),
});
export type CreateContactListBody = z.input<typeof createContactListBodySchema>;
/** PATCH /api/contact-lists/:id */
export const updateContactListBodySchema = createContactListBodySchema.omit({ contactIds: true }).partial();

/** Kept for older imports; the schema lives in common.ts. */
export { idParamsSchema } from './common.ts';

/** GET /api/contacts/export.csv */
export const exportQuerySchema = z.object({ listId: contactsQuerySchema.shape.listId });

export const CSV_REQUIRED = 'Please upload a CSV file first.';
export const NOT_CSV = 'Please upload a CSV file.';

/** A new list's name over the limit, in words (zod's own text read "Too big: expected string to have <=120 characters"). */
export const LIST_NAME_TOO_LONG = 'List name must be at most 120 characters';

/** POST /api/contacts/import-csv as JSON (the spec's body); large files are streamed as text/csv or multipart instead. */
export const importCsvBodySchema = z
  .object({
    csvData: z.string({ error: CSV_REQUIRED }).min(1, CSV_REQUIRED),
    listId: rowIdSchema('listId must be a list id').nullish(),
    createNewList: z.boolean().optional().default(false),
    newListName: z.string().trim().max(120, LIST_NAME_TOO_LONG).optional(),
    /** One field (or 'ignore') per column of the file; detected from the headers when left out. */
    columns: columnMappingSchema.optional(),
    /** A tag given to every contact of the import. */
    tag: importTagSchema,
  })
  .refine((body) => !body.createNewList || Boolean(body.newListName), {
    message: LIST_NAME_REQUIRED,
    path: ['newListName'],
  });

/** Query of a streamed import (text/csv body); multipart uploads send the same names as fields. */
export const importCsvQuerySchema = z
  .object({
    listId: z.coerce.number().int().positive().max(INT32_MAX, 'listId must be a list id').optional(),
    createNewList: z
      .enum(['true', 'false'])
      .optional()
      .transform((value) => value === 'true'),
    newListName: z.string().trim().max(120, LIST_NAME_TOO_LONG).optional(),
    columns: columnMappingParamSchema.optional(),
    tag: importTagSchema,
  })
  .refine((q) => !q.createNewList || Boolean(q.newListName), { message: LIST_NAME_REQUIRED, path: ['newListName'] });

export const importErrorSchema = z.object({ row: z.number().int(), message: z.string() });
export const importResultSchema = z.object({
  imported: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  errors: z.array(importErrorSchema),
  listId: z.number().int().nullable(),
  /** The headers of the columns that were not imported (mapped to 'ignore' or not recognised). */
  ignoredColumns: z.array(z.string()).default([]),
});
export type ImportResult = z.infer<typeof importResultSchema>;

/** Lines of the NDJSON answer a client gets when it asks for progress (Accept: application/x-ndjson). */
export const importProgressLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), rows: z.number().int() }),
  z.object({ type: z.literal('result'), result: importResultSchema }),
  z.object({ type: z.literal('error'), status: z.number().int(), message: z.string() }),
]);
export type ImportProgressLine = z.infer<typeof importProgressLineSchema>;

/**
 * GET /api/contacts/:id/timeline?page&pageSize: everything that happened with the contact, newest
 * first: mail sent to them (campaigns and sequence steps), opens (human or machine), clicks (with
 * the link; scanner clicks marked machine), bounces (with their reason; hard ones suppressed the
 * address), complaints, unsubscribes, auto-replies and delivery reports, sequences entered and
 * left, forms submitted and lead captures, purchases. `suppression` is the address's current
 * suppression, if any.
 */
export const CONTACT_TIMELINE_TYPES = [
  'sent',
  'open',
  'click',
  'bounce',
  'complaint',
  'unsubscribe',
  'auto-reply',
  'delivered',
  'sequence-entered',
  'sequence-left',
  'form',
  'lead',
  'purchase',
] as const;
export const contactTimelineEventSchema = z.object({
  type: z.enum(CONTACT_TIMELINE_TYPES),
  /** For bounces: the classified reason (BOUNCE_REASONS), null for older events. */
  reason: z.string().nullable(),
  /** For bounces: hard (the address is bad) or soft (counted toward the soft-bounce limit). */
  hard: z.boolean().nullable(),
  /** For opens and clicks: made by a machine (Apple's privacy proxy, a link scanner), not the reader. */
  machine: z.boolean().nullable(),
  /** For clicks: the link's URL. */
  url: z.string().nullable(),
  /**
   * What else the event says: a bounce's words, a sequence's exit reason, a form's state
   * ('confirmed' or 'awaiting confirmation'), a purchase's amount in cents.
   */
  detail: z.string().nullable(),
  campaignId: z.number().int().nullable(),
  campaignName: z.string().nullable(),
  sequenceId: z.number().int().nullable(),
  sequenceName: z.string().nullable(),
  /** For forms and lead captures: the lead source's name. */
  sourceName: z.string().nullable(),
  at: z.string(),
});
export type ContactTimelineEvent = z.infer<typeof contactTimelineEventSchema>;
export const CONTACT_TIMELINE_PAGE_SIZE_DEFAULT = 20;
export const CONTACT_TIMELINE_PAGE_SIZE_MAX = 100;
export const contactTimelineQuerySchema = z.object({
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page must be 1 or more').default(1),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int()
    .min(1, 'pageSize must be 1 or more')
    .max(CONTACT_TIMELINE_PAGE_SIZE_MAX, `pageSize must be at most ${CONTACT_TIMELINE_PAGE_SIZE_MAX}`)
    .default(CONTACT_TIMELINE_PAGE_SIZE_DEFAULT),
});
export type ContactTimelineQuery = z.input<typeof contactTimelineQuerySchema>;
export const contactTimelineSchema = z.object({
  events: z.array(contactTimelineEventSchema),
  page: z.number().int(),
  /** Whether older events follow on the next page. */
  hasMore: z.boolean(),
  suppression: z.object({ reason: z.string(), since: z.string(), detail: z.string().nullable() }).nullable(),
});
export type ContactTimeline = z.infer<typeof contactTimelineSchema>;
