import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@sendwell/contract/common';
import { contactListResponseSchema } from '@sendwell/contract/contacts';
import {
  createSegmentBodySchema,
  segmentContactsQuerySchema,
  segmentListSchema,
  segmentPreviewBodySchema,
  segmentPreviewResponseSchema,
  segmentSchema,
  updateSegmentBodySchema,
} from '@sendwell/contract/segments';
import type { AppContext } from '../../context.ts';
import { requireUserOrKey } from '../api-keys/index.ts';
import { setTotalHeaders } from '../../lib/paging.ts';
import * as segments from './segments.service.ts';

/**
 * Route table (signed-in, scoped to the user):
 *   GET    /api/contact-segments
 *   POST   /api/contact-segments
 *   POST   /api/contact-segments/preview       live count + first contacts of unsaved rules
 *   PATCH  /api/contact-segments/:id
 *   DELETE /api/contact-segments/:id
 *   POST   /api/contact-segments/:id/refresh
 *   GET    /api/contact-segments/:id/contacts   ?page&pageSize (X-Total-Count)
 */
export const segmentRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db } = ctx;
  const signedIn = requireUserOrKey(db, ctx.config, 'full');

  app.get(
    '/api/contact-segments',
    { guard: signedIn, schema: { response: { 200: segmentListSchema } } },
    async (request) => segments.segmentsOf(db, request.signedIn.user.id),
  );

  app.post(
    '/api/contact-segments',
    { guard: signedIn, schema: { body: createSegmentBodySchema, response: { 201: segmentSchema } } },
    async (request, reply) =>
      reply.status(201).send(await segments.createSegment(db, request.signedIn.user.id, request.body)),
  );

  app.post(
    '/api/contact-segments/preview',
    { guard: signedIn, schema: { body: segmentPreviewBodySchema, response: { 200: segmentPreviewResponseSchema } } },
    async (request) =>
      segments.previewConditions(db, request.signedIn.user.id, request.body.conditions, request.body.pageSize),
  );

  app.patch(
    '/api/contact-segments/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: updateSegmentBodySchema, response: { 200: segmentSchema } },
    },
    async (request) => segments.updateSegment(db, request.signedIn.user.id, request.params.id, request.body),
  );

  app.delete(
    '/api/contact-segments/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await segments.deleteSegment(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/contact-segments/:id/refresh',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: segmentSchema } } },
    async (request) => segments.refreshSegment(db, request.signedIn.user.id, request.params.id),
  );

  app.get(
    '/api/contact-segments/:id/contacts',
    {
      guard: signedIn,
      schema: {
        params: idParamsSchema,
        querystring: segmentContactsQuerySchema,
        response: { 200: contactListResponseSchema },
      },
    },
    async (request, reply) => {
      const page = await segments.segmentContacts(db, request.signedIn.user.id, request.params.id, request.query);
      setTotalHeaders(reply, page);
      return page.contacts;
    },
  );
};
