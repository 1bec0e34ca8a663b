import { z } from 'zod';

/** The largest id and integer column value Postgres' int4 holds; larger numbers make it refuse the query. */
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;

/** The id of a row in a body or query: a positive int4 (anything larger cannot be a row's id). */
export function rowIdSchema(message: string) {
  return z.number({ error: message }).int(message).positive(message).max(INT32_MAX, message);
}

/** `/:id` of a row the user owns; an id that cannot be one answers as not found. */
export const idParamsSchema = z.object({
  id: z.coerce.number({ error: 'Not found' }).int('Not found').positive('Not found').max(INT32_MAX, 'Not found'),
});

/** The earliest and latest days a date field accepts (UTC): Postgres refuses year 0, and ISO strings past 9999 gain a sign. */
export const EARLIEST_DATE = '1900-01-01';
export const LATEST_DATE = '9999-12-31';
const EARLIEST_MS = Date.parse(`${EARLIEST_DATE}T00:00:00Z`);
const AFTER_LATEST_MS = Date.parse(`${LATEST_DATE}T00:00:00Z`) + 86_400_000;

/** True when an instant (ms since the epoch) lies from EARLIEST_DATE to the end of LATEST_DATE, UTC. */
export function isWithinDateRange(ms: number): boolean {
  return ms >= EARLIEST_MS && ms < AFTER_LATEST_MS;
}

export const NUL_CHARACTERS = 'must not contain NUL characters';

/** A place in a value being walked: its key in its parent, kept as a chain so paths cost nothing until one is wanted. */
type Place = { value: unknown; key: string | number; parent: Place | null };

function pathOf(place: Place): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Place | null = place; at?.parent; at = at.parent) path.push(at.key);
  return path.reverse();
}

/**
 * The paths of every string in a request value (a JSON body, a query, path parameters) that holds a
 * NUL character (the first `limit` of them): Postgres text cannot store one, so no field may carry
 * it. Walked with a stack of its own, so deeply nested input cannot overflow the call stack, in time
 * linear in its size (the limit keeps many NULs deep down from costing depth × count).
 */
export function nulCharacterPaths(value: unknown, limit = 10): (string | number)[][] {
  const found: (string | number)[][] = [];
  const pending: Place[] = [{ value, key: '', parent: null }];
  while (pending.length > 0 && found.length < limit) {
    const place = pending.pop() as Place;
    const item = place.value;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.push(pathOf(place));
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index -= 1)
        pending.push({ value: item[index], key: index, parent: place });
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item).reverse()) pending.push({ value: child, key, parent: place });
    }
  }
  return found;
}

/**
 * `schema`, refusing first any string in the input that holds a NUL character, with an issue on its
 * field ("firstName must not contain NUL characters"). The server applies it to every request
 * schema, so every route refuses NUL the same way without each text field repeating the rule.
 */
export function refusingNulCharacters<Schema extends z.ZodType>(schema: Schema) {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      for (const path of nulCharacterPaths(value)) {
        const field = path.length > 0 ? path.join('.') : 'The value';
        ctx.addIssue({ code: 'custom', path, message: `${field} ${NUL_CHARACTERS}` });
      }
    })
    .pipe(schema);
}

/** `?token=` of a link Sendwell mailed (a confirmation link); its signature is checked by the server. */
export const tokenQuerySchema = z.object({ token: z.string().max(600).catch('') });
