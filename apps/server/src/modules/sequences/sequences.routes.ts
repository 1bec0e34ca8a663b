import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@sendwell/contract/common';
import {
  createSequenceBodySchema,
  editImpactBodySchema,
  editImpactSchema,
  enrolBodySchema,
  enrolmentListSchema,
  enrolmentsQuerySchema,
  enrolResponseSchema,
  sequenceAnalyticsSchema,
  sequenceEventBodySchema,
  sequenceTotalsSchema,
  sequenceListSchema,
  sequenceSchema,
  sequenceSettingsSchema,
  updateSequenceBodySchema,
} from '@sendwell/contract/sequences';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireUser } from '../auth/index.ts';
import { assertMaySendFrom, requireUserOrKey } from '../api-keys/index.ts';
import { setTotalHeaders } from '../../lib/paging.ts';
import * as sequences from './sequences.service.ts';
import { requestAdvance } from './sequences.jobs.ts';

/**
 * Route table (signed-in, scoped to the user):
 *   GET    /api/email-sequences
 *   POST   /api/email-sequences
 *   PATCH  /api/email-sequences/:id
 *   DELETE /api/email-sequences/:id
 *   POST   /api/email-sequences/:id/edit-impact   how many enrolments in flight an edit would move or leave
 *   POST   /api/email-sequences/:id/enrolments    {contactIds} | {listId} | {segmentId} → {enrolled}
 *   GET    /api/email-sequences/:id/enrolments    ?page&pageSize&state (X-Total-Count)
 *   GET    /api/email-sequences/analytics         totals over all sequences (Analytics tab)
 *   GET    /api/email-sequences/:id/analytics     totals and the per-step funnel
 *   POST   /api/email-sequences/events            {event, contactId | email} → {enrolled}: custom event triggers
 *   GET    /api/sequence-settings                 the account's frequency cap (defaults until saved)
 *   PUT    /api/sequence-settings                 saves it
 */
export const sequenceRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  const signedIn = requireUser(db, ctx.config);
  // What a program calls: enrolments and events (a sending key may start them), the list to find ids.
  const program = requireUserOrKey(db, ctx.config, 'full');
  const sender = requireUserOrKey(db, ctx.config, 'sending');

  app.get(
    '/api/email-sequences',
    { guard: sender, schema: { response: { 200: sequenceListSchema } } },
    async (request) => sequences.sequencesOf(db, request.signedIn.user.id),
  );

  app.post(
    '/api/email-sequences',
    { guard: signedIn, schema: { body: createSequenceBodySchema, response: { 201: sequenceSchema } } },
    async (request, reply) =>
      reply.status(201).send(await sequences.createSequence(db, request.signedIn.user, request.body)),
  );

  app.patch(
    '/api/email-sequences/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: updateSequenceBodySchema, response: { 200: sequenceSchema } },
    },
    async (request) =>
      sequences.updateSequence(db, request.signedIn.user, request.params.id, request.body, () =>
        requestAdvance(ctx.queue, 'activated'),
      ),
  );

  app.delete(
    '/api/email-sequences/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await sequences.deleteSequence(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/email-sequences/:id/edit-impact',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: editImpactBodySchema, response: { 200: editImpactSchema } },
    },
    async (request) => sequences.editImpact(db, request.signedIn.user.id, request.params.id, request.body.flowData),
  );

  app.post(
    '/api/email-sequences/:id/enrolments',
    {
      guard: sender,
      schema: { params: idParamsSchema, body: enrolBodySchema, response: { 200: enrolResponseSchema } },
    },
    async (request) => {
      const { apiKey } = request;
      if (apiKey?.domain) {
        const sequence = (await sequences.sequencesOf(db, request.signedIn.user.id)).find(
          (each) => each.id === request.params.id,
        );
        if (sequence) assertMaySendFrom(apiKey, sequence.fromEmail);
      }
      return sequences.enrol(db, request.signedIn.user.id, request.params.id, request.body, () =>
        requestAdvance(ctx.queue, 'enrolled'),
      );
    },
  );

  app.get(
    '/api/email-sequences/:id/enrolments',
    {
      guard: program,
      schema: { params: idParamsSchema, querystring: enrolmentsQuerySchema, response: { 200: enrolmentListSchema } },
    },
    async (request, reply) => {
      const page = await sequences.enrolmentsOf(db, request.signedIn.user.id, request.params.id, request.query);
      setTotalHeaders(reply, page);
      return page.enrolments;
    },
  );

  app.post(
    '/api/email-sequences/events',
    { guard: sender, schema: { body: sequenceEventBodySchema, response: { 200: enrolResponseSchema } } },
    async (request) => {
      // An event may start any of the account's sequences, whatever their sender.
      if (request.apiKey?.domain) {
        throw new AppError('forbidden', 'A key limited to one domain cannot post events: use a key for all domains');
      }
      return sequences.postEvent(db, request.signedIn.user.id, request.body, () => requestAdvance(ctx.queue, 'event'));
    },
  );

  app.get(
    '/api/email-sequences/analytics',
    { guard: signedIn, schema: { response: { 200: sequenceTotalsSchema } } },
    async (request) => sequences.analyticsTotals(db, request.signedIn.user.id),
  );

  app.get(
    '/api/email-sequences/:id/analytics',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: sequenceAnalyticsSchema } } },
    async (request) => sequences.sequenceAnalytics(db, request.signedIn.user.id, request.params.id),
  );

  app.get(
    '/api/sequence-settings',
    { guard: signedIn, schema: { response: { 200: sequenceSettingsSchema } } },
    async (request) => sequences.sequenceSettings(db, request.signedIn.user.id),
  );

  app.put(
    '/api/sequence-settings',
    { guard: signedIn, schema: { body: sequenceSettingsSchema, response: { 200: sequenceSettingsSchema } } },
    async (request) => sequences.saveSequenceSettings(db, request.signedIn.user.id, request.body),
  );
};
