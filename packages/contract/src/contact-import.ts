import { z } from 'zod';

/**
 * The CSV import's column mapping, shared by the browser (which shows and lets the user change it)
 * and the server (which applies it): each column of the file maps to a contact field or is ignored.
 */
export const IMPORT_FIELDS = [
  'email',
  'firstName',
  'lastName',
  'fullName',
  'company',
  'jobTitle',
  'phone',
  'location',
  'notes',
  'tags',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export const IGNORE_COLUMN = 'ignore';
export type ColumnMapping = ImportField | typeof IGNORE_COLUMN;

/** The words a person reads for each field (the mapping menu, skip reasons, the help text). */
export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  email: 'Email',
  firstName: 'First name',
  lastName: 'Last name',
  fullName: 'Full name (split into first and last)',
  company: 'Company',
  jobTitle: 'Job title',
  phone: 'Phone',
  location: 'Location',
  notes: 'Notes',
  tags: 'Tags',
};

/**
 * Header spellings recognised, compared after lower-casing and dropping everything but letters and
 * digits. Besides the common names, the export headers of Mailchimp ("Email Address", "First Name",
 * "TAGS", "Phone Number"), Brevo ("EMAIL", "FIRSTNAME", "LASTNAME", "SMS"), HubSpot ("Company Name",
 * "Job Title", "City") and Google Contacts ("E-mail 1 - Value", "Organization 1 - Name", "Labels").
 */
const HEADER_ALIASES: Record<ImportField, readonly string[]> = {
  email: ['email', 'emailaddress', 'mail', 'emailid', 'email1value', 'primaryemail', 'emailaddress1'],
  firstName: ['firstname', 'first', 'givenname', 'fname', 'forename', 'prenom'],
  lastName: ['lastname', 'last', 'surname', 'familyname', 'lname', 'nom'],
  fullName: ['name', 'fullname', 'contactname', 'displayname'],
  company: [
    'company',
    'companyname',
    'organization',
    'organisation',
    'org',
    'employer',
    'organization1name',
    'organizationname',
  ],
  jobTitle: ['jobtitle', 'title', 'position', 'role', 'organization1title', 'organizationtitle'],
  phone: ['phone', 'phonenumber', 'mobile', 'telephone', 'tel', 'cell', 'sms', 'phone1value', 'mobilephonenumber'],
  location: ['location', 'city', 'address', 'region', 'address1city'],
  notes: ['notes', 'note', 'comments', 'comment'],
  tags: ['tags', 'tag', 'labels', 'groupmembership'],
};

export function normalizeHeader(header: string): string {
  return header.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The field a header names, if any. */
export function fieldOfHeader(header: string): ImportField | undefined {
  const key = normalizeHeader(header);
  return IMPORT_FIELDS.find((field) => HEADER_ALIASES[field].includes(key));
}

/** The automatic mapping: each header's field, the first column of a field winning; the rest ignored. */
export function detectColumns(headers: readonly string[]): ColumnMapping[] {
  const taken = new Set<ImportField>();
  return headers.map((header) => {
    const field = fieldOfHeader(header);
    if (!field || taken.has(field)) return IGNORE_COLUMN;
    taken.add(field);
    return field;
  });
}

/** Field → column index for the fields a mapping uses (the first column of a field wins). */
export function columnIndexes(mapping: readonly ColumnMapping[]): Partial<Record<ImportField, number>> {
  const indexes: Partial<Record<ImportField, number>> = {};
  mapping.forEach((field, index) => {
    if (field !== IGNORE_COLUMN && indexes[field] === undefined) indexes[field] = index;
  });
  return indexes;
}

/**
 * A tags cell as tags: split at commas, semicolons, pipes and Google's ":::", each unquoted
 * (Mailchimp writes `"Customers","VIP"`, first-hour finding 5) and trimmed; Google's system labels
 * ("* myContacts") dropped; duplicates once.
 */
export function splitTags(text: string): string[] {
  const tags = text
    .split(/:::|[,;|]/)
    .map((tag) => tag.trim().replace(/^["'\s]+|["'\s]+$/g, ''))
    .filter((tag) => tag !== '' && !tag.startsWith('* '));
  return [...new Set(tags)];
}

const MAPPING_VALUES = [...IMPORT_FIELDS, IGNORE_COLUMN] as const;
const UNKNOWN_FIELD = `Each column maps to one of ${MAPPING_VALUES.join(', ')}`;

/** The mapping in a JSON body: one entry per column of the file. */
export const columnMappingSchema = z
  .array(z.enum(MAPPING_VALUES, { error: UNKNOWN_FIELD }))
  .max(1000, 'The file has too many columns to map (at most 1,000)');

/** The mapping in a query string or multipart field: the entries joined with commas. */
export const columnMappingParamSchema = z
  .string()
  .max(20_000)
  .transform((text) => text.split(',').map((part) => part.trim()))
  .pipe(columnMappingSchema);

/** A tag given to every contact of the import. */
export const importTagSchema = z
  .string()
  .trim()
  .max(50, 'The tag for this import must be at most 50 characters')
  .optional()
  .transform((tag) => tag || undefined);
