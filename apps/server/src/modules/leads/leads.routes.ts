import type { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, refusingNulCharacters } from '@sendwell/contract/common';
import {
  convertLeadBodySchema,
  createdLeadSourceSchema,
  generateLeadsBodySchema,
  importLeadsCsvBodySchema,
  LEAD_WEBHOOK_SIGNATURE_HEADER,
  LEAD_WEBHOOK_TIMESTAMP_HEADER,
  leadGenerationRunParamsSchema,
  leadGenerationRunResponseSchema,
  leadsLoadedSchema,
  sampleLeadsBodySchema,
  convertLeadResultSchema,
  createLeadBodySchema,
  createLeadCampaignBodySchema,
  createLeadSourceBodySchema,
  leadCampaignSchema,
  leadCampaignsResponseSchema,
  leadSchema,
  leadSourceCreditsSchema,
  leadSourceSchema,
  leadSourcesResponseSchema,
  type LeadsLoaded,
  leadsResponseSchema,
  updateLeadBodySchema,
  updateLeadSourceBodySchema,
} from '@sendwell/contract/leads';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/app-error.ts';
import { sendProgressStream } from '../../lib/ndjson-stream.ts';
import { requireUserOrKey } from '../api-keys/index.ts';
import { MAX_IMPORT_BYTES, type CsvSource } from '../contacts/index.ts';
import { mxCacheFor } from './address-checks.ts';
import { importLeadsCsv, loadSampleLeads, receiveWebhookLeads } from './lead-intake.service.ts';
import { generationRun, startGeneration } from './leads.generate.ts';
import { leadGenerationJob } from './leads.jobs.ts';
import * as leads from './leads.service.ts';

/** Media types a lead list is streamed as (besides JSON {csvData}). */
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel']);
/** A webhook delivery's largest body: 100 leads fit well within it. */
const MAX_WEBHOOK_BYTES = 1024 * 1024;
/** `/api/webhook/leads/:sourceId` */
const webhookParamsSchema = z.object({
  sourceId: z.coerce.number({ error: 'Not found' }).int('Not found').positive('Not found').max(2147483647, 'Not found'),
});

/** The app context, and whom to tell when converting a lead changed the account's contacts (app.ts passes it). */
export type LeadRoutesOptions = AppContext & { onContactsChanged(userId: string): Promise<void> };

/**
 * Route table (guard → route):
 *   user  GET    /api/lead-sources            the account's sources with their lead counts
 *   user  POST   /api/lead-sources            one form per type; API keys are sealed
 *   user  PATCH  /api/lead-sources/:id        name, active, key, a form's consent text and opt-in
 *   user  DELETE /api/lead-sources/:id        its leads stay, without a source
 *   user  GET    /api/lead-sources/:id/credits an enrichment key's searches left (Hunter's account endpoint)
 *   user  POST   /api/lead-sources/:id/sample-leads {profession, location}: a sample source's demo businesses
 *   user  POST   /api/lead-sources/:id/import-csv   a csv source's lead list: JSON {csvData} or a text/csv
 *                                                 stream; NDJSON progress lines with Accept: application/x-ndjson
 *   user  POST   /api/leads/generate          {profession, location, platforms} → 202 the run (queued), one job
 *   user  GET    /api/leads/generate/:id      the run with progress per platform (polled)
 *   public POST  /api/webhook/leads/:sourceId  a webhook source's signed delivery (HMAC of timestamp.body)
 *   user  GET    /api/leads                   newest first
 *   user  POST   /api/leads                   one lead by hand (spec §7's fields); score computed here
 *   user  GET    /api/leads/:id
 *   user  PATCH  /api/leads/:id               status new → contacted → qualified → lost, notes, basis, campaign
 *   user  POST   /api/leads/:id/convert       {listId}: creates or updates its contact in the list
 *   user  GET    /api/lead-campaigns          with counts from their leads' statuses
 *   user  POST   /api/lead-campaigns
 */
export const leadRoutes: FastifyPluginAsyncZod<LeadRoutesOptions> = async (app, ctx) => {
  const { db, config } = ctx;
  // Signed-in people and full API keys.
  const signedIn = requireUserOrKey(db, config, 'full');

  app.get(
    '/api/lead-sources',
    { guard: signedIn, schema: { response: { 200: leadSourcesResponseSchema } } },
    async (request) => leads.leadSources(db, request.signedIn.user.id),
  );

  app.post(
    '/api/lead-sources',
    { guard: signedIn, schema: { body: createLeadSourceBodySchema, response: { 201: createdLeadSourceSchema } } },
    async (request, reply) =>
      reply.status(201).send(await leads.createLeadSource(db, config, request.signedIn.user.id, request.body)),
  );

  app.patch(
    '/api/lead-sources/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: updateLeadSourceBodySchema, response: { 200: leadSourceSchema } },
    },
    async (request) =>
      leads.updateLeadSource(db, config.sessionSecret, request.signedIn.user.id, request.params.id, request.body),
  );

  app.delete(
    '/api/lead-sources/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await leads.deleteLeadSource(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/lead-sources/:id/credits',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: leadSourceCreditsSchema } } },
    async (request) => leads.leadSourceCredits(config, db, request.signedIn.user.id, request.params.id),
  );

  app.post(
    '/api/lead-sources/:id/sample-leads',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: sampleLeadsBodySchema, response: { 200: leadsLoadedSchema } },
    },
    async (request) =>
      loadSampleLeads(db, request.signedIn.user.id, request.params.id, request.body.profession, request.body.location),
  );

  // A lead list streams in as text/csv; JSON ({csvData}) goes through the usual parser.
  app.addContentTypeParser([...CSV_TYPES], (_request, payload, done) => done(null, payload));
  app.post(
    '/api/lead-sources/:id/import-csv',
    { guard: signedIn, bodyLimit: MAX_IMPORT_BYTES + 1024 * 1024, schema: { params: idParamsSchema } },
    async (request, reply) => {
      const userId = request.signedIn.user.id;
      const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      let source: CsvSource;
      if (type === 'application/json') {
        source = [refusingNulCharacters(importLeadsCsvBodySchema).parse(request.body).csvData];
      } else if (CSV_TYPES.has(type)) {
        source = request.body as Readable;
      } else {
        throw new AppError('bad_request', 'Upload a CSV file (text/csv) or JSON with csvData');
      }
      const mxCache = mxCacheFor(config.dnsServers);
      if (!(request.headers.accept ?? '').includes('application/x-ndjson')) {
        return leadsLoadedSchema.parse(await importLeadsCsv(db, mxCache, userId, request.params.id, source));
      }
      // Progress as NDJSON lines (leadImportProgressLineSchema): rows read so far, then the result or an error.
      return sendProgressStream(
        request,
        reply,
        (reportRows): Promise<LeadsLoaded> =>
          importLeadsCsv(db, mxCache, userId, request.params.id, source, reportRows),
        'Failed to import the lead list',
      );
    },
  );

  app.post(
    '/api/leads/generate',
    {
      guard: signedIn,
      schema: { body: generateLeadsBodySchema, response: { 202: leadGenerationRunResponseSchema } },
    },
    async (request, reply) =>
      reply.status(202).send(
        await startGeneration(ctx, request.signedIn.user.id, request.body, async (runId) => {
          await leadGenerationJob.enqueue(ctx.queue, { runId });
        }),
      ),
  );

  app.get(
    '/api/leads/generate/:id',
    {
      guard: signedIn,
      schema: { params: leadGenerationRunParamsSchema, response: { 200: leadGenerationRunResponseSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return generationRun(ctx, request.signedIn.user.id, request.params.id);
    },
  );

  await app.register(async (instance) => {
    const webhook = instance.withTypeProvider<ZodTypeProvider>();
    // The signature covers the exact bytes sent, so the body stays raw.
    webhook.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: MAX_WEBHOOK_BYTES },
      (_request, body, done) => done(null, body),
    );
    webhook.post(
      '/api/webhook/leads/:sourceId',
      {
        guard: 'public',
        bodyLimit: MAX_WEBHOOK_BYTES,
        schema: { params: webhookParamsSchema, response: { 200: leadsLoadedSchema } },
      },
      async (request) => {
        if (!Buffer.isBuffer(request.body)) throw new AppError('bad_request', 'The body must be JSON');
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        return receiveWebhookLeads(
          db,
          config,
          mxCacheFor(config.dnsServers),
          request.params.sourceId,
          { timestamp: header(LEAD_WEBHOOK_TIMESTAMP_HEADER), signature: header(LEAD_WEBHOOK_SIGNATURE_HEADER) },
          request.body,
        );
      },
    );
  });

  app.get('/api/leads', { guard: signedIn, schema: { response: { 200: leadsResponseSchema } } }, async (request) =>
    leads.listLeads(db, request.signedIn.user.id),
  );

  app.post(
    '/api/leads',
    { guard: signedIn, schema: { body: createLeadBodySchema, response: { 201: leadSchema } } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await leads.createLead(db, mxCacheFor(config.dnsServers), request.signedIn.user.id, request.body)),
  );

  app.get(
    '/api/leads/:id',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: leadSchema } } },
    async (request) => leads.getLead(db, request.signedIn.user.id, request.params.id),
  );

  app.patch(
    '/api/leads/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: updateLeadBodySchema, response: { 200: leadSchema } },
    },
    async (request) => leads.updateLead(db, request.signedIn.user.id, request.params.id, request.body),
  );

  app.post(
    '/api/leads/:id/convert',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: convertLeadBodySchema, response: { 200: convertLeadResultSchema } },
    },
    async (request) =>
      leads.convertLead(db, request.signedIn.user.id, request.params.id, request.body.listId, ctx.onContactsChanged),
  );

  app.get(
    '/api/lead-campaigns',
    { guard: signedIn, schema: { response: { 200: leadCampaignsResponseSchema } } },
    async (request) => leads.leadCampaigns(db, request.signedIn.user.id),
  );

  app.post(
    '/api/lead-campaigns',
    { guard: signedIn, schema: { body: createLeadCampaignBodySchema, response: { 201: leadCampaignSchema } } },
    async (request, reply) =>
      reply.status(201).send(await leads.createLeadCampaign(db, request.signedIn.user.id, request.body)),
  );
};
