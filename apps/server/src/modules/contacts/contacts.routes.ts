import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  bulkDeleteBodySchema,
  bulkListBodySchema,
  bulkResultSchema,
  contactDetailSchema,
  contactTimelineQuerySchema,
  contactTimelineSchema,
  contactListResponseSchema,
  contactListSchema,
  contactListsResponseSchema,
  contactSchema,
  contactsQuerySchema,
  createContactBodySchema,
  createContactListBodySchema,
  exportQuerySchema,
  importCsvBodySchema,
  importCsvQuerySchema,
  importResultSchema,
  listContactsQuerySchema,
  NOT_CSV,
  CSV_REQUIRED,
  updateContactBodySchema,
  updateContactListBodySchema,
  type ImportResult,
} from '@sendwell/contract/contacts';
import { idParamsSchema, refusingNulCharacters } from '@sendwell/contract/common';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { sendProgressStream } from '../../lib/ndjson-stream.ts';
import type { RequestCompanion } from '../auth/index.ts';
import { requireUserOrKey } from '../api-keys/index.ts';
import { setTotalHeaders } from '../../lib/paging.ts';
import * as contacts from './contacts.service.ts';
import { exportContactsCsv } from './contacts.csv-export.ts';
import { importContactsCsv, MAX_IMPORT_BYTES, type CsvSource, type ImportTarget } from './contacts.import.ts';

const CSV_TYPES = new Set([
  'text/csv',
  'application/csv',
  'text/plain',
  'application/vnd.ms-excel',
  'text/comma-separated-values',
]);

/** An import's largest body: the file and, in a multipart form, the fields around it. */
const IMPORT_BODY_LIMIT = MAX_IMPORT_BYTES + 1024 * 1024;

function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * Sends JSON that is serialised already: with a JSON content type, Fastify sends a string as it is
 * instead of passing it to the route's schema serializer (whose typing is why the reply is widened).
 */
function sendSerialisedJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The stored search page a GET /api/contacts was checked against along its session lookup. */
    searchPageAlongSession: { userId: string; stored: contacts.StoredPage; confirmed: boolean } | null;
  }
}

/** Sessions remembered, so a search page can be picked before the session lookup names the user. */
const SESSION_HINTS_MAX = 10_000;

/**
 * Asks along the session lookup of GET /api/contacts?search whether the stored page it would be
 * answered from is still current, so a page served from the cache costs one round trip, not two.
 * The user is not known before that lookup, so the page is picked for the user the session belonged
 * to last time (a session never changes user); the statement checks that the session is that
 * user's before it answers yes, and a request without a remembered user simply asks nothing.
 */
function cachedPageCompanion(db: Db): RequestCompanion {
  const userOfSession = new Map<string, string>();
  return {
    question: contacts.storedPageQuestion,
    ask(request, sessionId) {
      const userId = userOfSession.get(sessionId);
      if (userId === undefined || request.method !== 'GET' || request.routeOptions.url !== '/api/contacts') return null;
      const query = contactsQuerySchema.safeParse(request.query);
      const stored = query.success ? contacts.storedSearchPage(db, userId, query.data) : null;
      if (!stored) return null;
      request.searchPageAlongSession = { userId, stored, confirmed: false };
      return contacts.storedPageCheckValues(userId, stored);
    },
    answered(request, answer) {
      const { sessionId, user } = request.signedIn;
      if (userOfSession.get(sessionId) !== user.id) {
        userOfSession.set(sessionId, user.id);
        if (userOfSession.size > SESSION_HINTS_MAX) userOfSession.delete(userOfSession.keys().next().value as string);
      }
      const asked = request.searchPageAlongSession;
      if (!asked) return;
      if (answer === true && asked.userId === user.id) asked.confirmed = true;
      else contacts.dropStoredPage(db, asked.stored);
    },
  };
}

function looksLikeCsvFile(filename: string, mimetype: string): boolean {
  return filename.toLowerCase().endsWith('.csv') || CSV_TYPES.has(mimetype.toLowerCase());
}

/**
 * Route table (all signed-in, all scoped to the user; another user's id answers 404):
 *   GET    /api/contacts                 ?search&listId&status&page&pageSize → Contact[] + X-Total-Count
 *   POST   /api/contacts
 *   GET    /api/contacts/export.csv      ?listId
 *   POST   /api/contacts/import-csv      JSON {csvData,…} | text/csv stream (?listId&createNewList&newListName) | multipart
 *   POST   /api/contacts/bulk-delete | bulk-add-to-list | bulk-remove-from-list
 *   GET    /api/contacts/:id
 *   GET    /api/contacts/:id/timeline     ?page&pageSize → mail, opens, clicks, bounces, sequences, forms… newest first; the suppression
 *   PATCH  /api/contacts/:id
 *   DELETE /api/contacts/:id
 *   GET    /api/contact-lists
 *   POST   /api/contact-lists
 *   PATCH  /api/contact-lists/:id
 *   DELETE /api/contact-lists/:id
 *   GET    /api/contact-lists/:id/contacts ?search&status&page&pageSize
 */
/**
 * The app context, and whom to tell when a user's contacts change: the caller passes it in (app.ts
 * has auto-updating segments catch up), so contacts depend on no module that depends on them.
 */
export type ContactRoutesOptions = AppContext & { onContactsChanged(userId: string): Promise<void> };

export const contactRoutes: FastifyPluginAsyncZod<ContactRoutesOptions> = async (app, ctx) => {
  const { db } = ctx;
  app.decorateRequest('searchPageAlongSession', null);
  const signedIn = requireUserOrKey(db, ctx.config, 'full', cachedPageCompanion(db));
  // Any successful change to contacts may move auto-updating segments; the listener (a debounced job)
  // hears of it before the answer leaves, so a client that reads right after sees the job.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && reply.statusCode < 300 && request.signedIn) {
      await ctx
        .onContactsChanged(request.signedIn.user.id)
        .catch((error: unknown) => request.log.error({ err: error }, 'could not report the contact change'));
    }
    return payload;
  });

  // Large imports arrive as a raw stream; anything else that is not JSON is refused in the handler.
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10 } });

  app.get(
    '/api/contacts',
    { guard: signedIn, schema: { querystring: contactsQuerySchema, response: { 200: contactListResponseSchema } } },
    async (request, reply) => {
      const confirmed = request.searchPageAlongSession?.confirmed ? request.searchPageAlongSession.stored : null;
      const page = await contacts.searchContacts(db, request.signedIn.user.id, request.query, confirmed);
      setTotalHeaders(reply, page);
      // A cached search page arrives as the JSON of the same contacts; a string with a JSON type is sent as it is.
      if ('json' in page) return sendSerialisedJson(reply, page.json);
      return page.contacts;
    },
  );

  app.post(
    '/api/contacts',
    { guard: signedIn, schema: { body: createContactBodySchema, response: { 201: contactSchema } } },
    async (request, reply) =>
      reply.status(201).send(await contacts.createContact(db, request.signedIn.user.id, request.body, ctx.config)),
  );

  app.get(
    '/api/contacts/export.csv',
    { guard: signedIn, schema: { querystring: exportQuerySchema } },
    async (request, reply) => {
      const { listId } = request.query;
      const userId = request.signedIn.user.id;
      const list = listId === undefined ? undefined : await contacts.requireList(db, userId, listId);
      const name = list ? list.name.replace(/[^A-Za-z0-9._-]+/g, '-') : 'contacts';
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}.csv"`)
        .send(Readable.from(exportContactsCsv(db, userId, listId)));
    },
  );

  app.post('/api/contacts/import-csv', { guard: signedIn, bodyLimit: IMPORT_BODY_LIMIT }, async (request, reply) => {
    const userId = request.signedIn.user.id;
    const type = mediaType(request);
    let source: CsvSource;
    let target: ImportTarget;
    if (type === 'application/json') {
      const body = refusingNulCharacters(importCsvBodySchema).parse(request.body);
      source = [body.csvData];
      target = {
        listId: body.listId ?? undefined,
        newListName: body.createNewList ? body.newListName : undefined,
        columns: body.columns,
        tag: body.tag,
      };
    } else if (type === 'multipart/form-data') {
      const file = await request.file();
      if (!file) throw new AppError('bad_request', CSV_REQUIRED);
      if (!looksLikeCsvFile(file.filename, file.mimetype)) throw new AppError('bad_request', NOT_CSV);
      const fields = Object.fromEntries(
        Object.entries(file.fields).flatMap(([key, part]) =>
          part && !Array.isArray(part) && part.type === 'field' ? [[key, String(part.value)]] : [],
        ),
      );
      const query = refusingNulCharacters(importCsvQuerySchema).parse(fields);
      source = file.file;
      target = {
        listId: query.listId,
        newListName: query.createNewList ? query.newListName : undefined,
        columns: query.columns,
        tag: query.tag,
      };
    } else if (CSV_TYPES.has(type)) {
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > MAX_IMPORT_BYTES) throw new AppError('too_large', 'The CSV file is larger than 100 MB');
      const query = refusingNulCharacters(importCsvQuerySchema).parse(request.query);
      source = request.body as Readable;
      target = {
        listId: query.listId,
        newListName: query.createNewList ? query.newListName : undefined,
        columns: query.columns,
        tag: query.tag,
      };
    } else {
      throw new AppError('bad_request', NOT_CSV);
    }

    const wantsProgress = (request.headers.accept ?? '').includes('application/x-ndjson');
    if (!wantsProgress)
      return importResultSchema.parse(await importContactsCsv(db, userId, source, { ...target, billing: ctx.config }));

    // Progress as NDJSON lines (importProgressLineSchema): rows read so far, then the result or an error.
    return sendProgressStream(
      request,
      reply,
      async (reportRows): Promise<ImportResult> => {
        const result = await importContactsCsv(db, userId, source, { ...target, billing: ctx.config }, reportRows);
        // A long streamed import outlives the answer's start: report the change again once it is done.
        await ctx.onContactsChanged(userId).catch(() => undefined);
        return result;
      },
      'Failed to import contacts. Please check your CSV format.',
    );
  });

  app.post(
    '/api/contacts/bulk-delete',
    { guard: signedIn, schema: { body: bulkDeleteBodySchema, response: { 200: bulkResultSchema } } },
    async (request) => ({
      affected: await contacts.bulkDelete(db, request.signedIn.user.id, request.body),
    }),
  );

  app.post(
    '/api/contacts/bulk-add-to-list',
    { guard: signedIn, schema: { body: bulkListBodySchema, response: { 200: bulkResultSchema } } },
    async (request) => ({
      affected: await contacts.bulkAddToList(db, request.signedIn.user.id, request.body.listId, request.body),
    }),
  );

  app.post(
    '/api/contacts/bulk-remove-from-list',
    { guard: signedIn, schema: { body: bulkListBodySchema, response: { 200: bulkResultSchema } } },
    async (request) => ({
      affected: await contacts.bulkRemoveFromList(db, request.signedIn.user.id, request.body.listId, request.body),
    }),
  );

  app.get(
    '/api/contacts/:id',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: contactDetailSchema } } },
    async (request) => contacts.getContact(db, request.signedIn.user.id, request.params.id),
  );

  app.get(
    '/api/contacts/:id/timeline',
    {
      guard: signedIn,
      schema: {
        params: idParamsSchema,
        querystring: contactTimelineQuerySchema,
        response: { 200: contactTimelineSchema },
      },
    },
    async (request) => contacts.contactTimeline(db, request.signedIn.user.id, request.params.id, request.query),
  );

  app.patch(
    '/api/contacts/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: updateContactBodySchema, response: { 200: contactSchema } },
    },
    async (request) => contacts.updateContact(db, request.signedIn.user.id, request.params.id, request.body),
  );

  app.delete('/api/contacts/:id', { guard: signedIn, schema: { params: idParamsSchema } }, async (request, reply) => {
    await contacts.deleteContact(db, request.signedIn.user.id, request.params.id);
    return reply.status(204).send();
  });

  app.get(
    '/api/contact-lists',
    { guard: signedIn, schema: { response: { 200: contactListsResponseSchema } } },
    async (request) => contacts.contactLists(db, request.signedIn.user.id),
  );

  app.post(
    '/api/contact-lists',
    { guard: signedIn, schema: { body: createContactListBodySchema, response: { 201: contactListSchema } } },
    async (request, reply) =>
      reply.status(201).send(await contacts.createList(db, request.signedIn.user.id, request.body)),
  );

  app.patch(
    '/api/contact-lists/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: updateContactListBodySchema, response: { 200: contactListSchema } },
    },
    async (request) => contacts.updateList(db, request.signedIn.user.id, request.params.id, request.body),
  );

  app.delete(
    '/api/contact-lists/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await contacts.deleteList(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/contact-lists/:id/contacts',
    {
      guard: signedIn,
      schema: {
        params: idParamsSchema,
        querystring: listContactsQuerySchema,
        response: { 200: contactListResponseSchema },
      },
    },
    async (request, reply) => {
      const page = await contacts.searchContacts(db, request.signedIn.user.id, {
        ...request.query,
        listId: request.params.id,
      });
      setTotalHeaders(reply, page);
      if ('json' in page) return sendSerialisedJson(reply, page.json);
      return page.contacts;
    },
  );
};
