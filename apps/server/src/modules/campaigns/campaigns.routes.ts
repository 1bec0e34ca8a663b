import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  campaignActivityExportQuerySchema,
  campaignActivityQuerySchema,
  campaignActivityResponseSchema,
  campaignDetailSchema,
  campaignListSchema,
  campaignReportSchema,
  createCampaignBodySchema,
  recipientCountResponseSchema,
  renderPreviewBodySchema,
  renderPreviewResponseSchema,
  sendTestBodySchema,
  sendTestResponseSchema,
  updateCampaignBodySchema,
} from '@sendwell/contract/campaigns';
import { idParamsSchema } from '@sendwell/contract/common';
import type { AppContext } from '../../context.ts';
import { assertMaySendFrom, requireUserOrKey, type ApiKeyGrant } from '../api-keys/index.ts';
import * as campaigns from './campaigns.service.ts';
import { campaignActivity, campaignActivityCsv } from './campaign-activity.ts';
import { campaignReport } from './campaign-report.ts';
import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  scheduleCampaignStart,
  sendTestEmails,
  startCampaignSend,
} from './campaign-send.service.ts';

/**
 * Route table (signed-in, scoped to the user):
 *   GET    /api/campaigns                 list
 *   POST   /api/campaigns                 create (status 'sent'/'sending' = send now; 'scheduled' = at scheduledAt)
 *   POST   /api/campaigns/preview         the server's rendering of unsaved blocks
 *   GET    /api/campaigns/:id
 *   PATCH  /api/campaigns/:id             drafts only (409); a scheduled one may go back to draft
 *   DELETE /api/campaigns/:id             drafts only
 *   POST   /api/campaigns/:id/duplicate   a new draft "Copy of …" (any status)
 *   GET    /api/campaigns/:id/recipients  how many recipients it would go to now
 *   POST   /api/campaigns/:id/send
 *   POST   /api/campaigns/:id/test        {emails}
 *   POST   /api/campaigns/:id/pause | resume | cancel
 *   GET    /api/campaigns/:id/report
 *   GET    /api/campaigns/:id/activity?kind=&search=&page=&pageSize=   who opened / clicked / bounced / …
 *   GET    /api/campaigns/:id/activity.csv?kind=&search=               the same, every row, as streamed CSV
 */
export const campaignRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db, config } = ctx;
  // Every campaign route takes a person or a full API key; reading and sending campaigns also takes a sending key.
  const signedIn = requireUserOrKey(db, config, 'full');
  const sender = requireUserOrKey(db, config, 'sending');
  /** A key limited to a domain sends only campaigns from that domain. */
  const assertKeyMaySend = async (apiKey: ApiKeyGrant | undefined, userId: string, id: number) => {
    if (apiKey?.domain) assertMaySendFrom(apiKey, (await campaigns.getCampaign(db, userId, id)).fromEmail);
  };

  const afterSave = async (campaign: { id: number; status: string; scheduledAt: string | null }) => {
    if (campaign.status === 'scheduled' && campaign.scheduledAt)
      await scheduleCampaignStart(ctx, campaign.id, new Date(campaign.scheduledAt));
  };

  app.get('/api/campaigns', { guard: sender, schema: { response: { 200: campaignListSchema } } }, async (request) =>
    campaigns.campaignsOf(db, request.signedIn.user.id),
  );

  app.post(
    '/api/campaigns',
    { guard: signedIn, schema: { body: createCampaignBodySchema, response: { 201: campaignDetailSchema } } },
    async (request, reply) => {
      const user = request.signedIn.user;
      const created = await campaigns.createCampaign(db, user, config.publicUrl, request.body, (id) =>
        startCampaignSend(ctx, user.id, id),
      );
      await afterSave(created);
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/api/campaigns/preview',
    { guard: signedIn, schema: { body: renderPreviewBodySchema, response: { 200: renderPreviewResponseSchema } } },
    async (request) => campaigns.previewEmail(db, request.body, request.signedIn.user, config.publicUrl),
  );

  app.get(
    '/api/campaigns/:id',
    { guard: sender, schema: { params: idParamsSchema, response: { 200: campaignDetailSchema } } },
    async (request) => campaigns.getCampaign(db, request.signedIn.user.id, request.params.id),
  );

  app.patch(
    '/api/campaigns/:id',
    {
      guard: signedIn,
      schema: { params: idParamsSchema, body: updateCampaignBodySchema, response: { 200: campaignDetailSchema } },
    },
    async (request) => {
      const user = request.signedIn.user;
      const updated = await campaigns.updateCampaign(
        db,
        user,
        config.publicUrl,
        request.params.id,
        request.body,
        (id) => startCampaignSend(ctx, user.id, id),
      );
      await afterSave(updated);
      return updated;
    },
  );

  app.delete('/api/campaigns/:id', { guard: signedIn, schema: { params: idParamsSchema } }, async (request, reply) => {
    await campaigns.deleteCampaign(db, request.signedIn.user.id, request.params.id);
    return reply.status(204).send();
  });

  app.post(
    '/api/campaigns/:id/duplicate',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 201: campaignDetailSchema } } },
    async (request, reply) =>
      reply.status(201).send(await campaigns.duplicateCampaign(db, request.signedIn.user.id, request.params.id)),
  );

  app.get(
    '/api/campaigns/:id/report',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: campaignReportSchema } } },
    async (request) => campaignReport(db, request.signedIn.user.id, request.params.id),
  );

  app.get(
    '/api/campaigns/:id/activity',
    {
      guard: signedIn,
      schema: {
        params: idParamsSchema,
        querystring: campaignActivityQuerySchema,
        response: { 200: campaignActivityResponseSchema },
      },
    },
    async (request) => campaignActivity(db, request.signedIn.user.id, request.params.id, request.query),
  );

  app.get(
    '/api/campaigns/:id/activity.csv',
    { guard: signedIn, schema: { params: idParamsSchema, querystring: campaignActivityExportQuerySchema } },
    async (request, reply) => {
      const csv = await campaignActivityCsv(db, request.signedIn.user.id, request.params.id, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csv.filename}"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(csv.rows));
    },
  );

  app.get(
    '/api/campaigns/:id/recipients',
    { guard: signedIn, schema: { params: idParamsSchema, response: { 200: recipientCountResponseSchema } } },
    async (request) => ({
      count: await campaigns.countCampaignRecipients(db, request.signedIn.user.id, request.params.id),
    }),
  );

  app.post(
    '/api/campaigns/:id/send',
    { guard: sender, schema: { params: idParamsSchema, response: { 200: campaignDetailSchema } } },
    async (request) => {
      await assertKeyMaySend(request.apiKey, request.signedIn.user.id, request.params.id);
      await startCampaignSend(ctx, request.signedIn.user.id, request.params.id);
      return campaigns.getCampaign(db, request.signedIn.user.id, request.params.id);
    },
  );

  app.post(
    '/api/campaigns/:id/test',
    {
      guard: sender,
      schema: {
        params: idParamsSchema,
        body: sendTestBodySchema,
        response: { 200: sendTestResponseSchema },
      },
    },
    async (request) => {
      await assertKeyMaySend(request.apiKey, request.signedIn.user.id, request.params.id);
      return { sent: await sendTestEmails(ctx, request.signedIn.user, request.params.id, request.body.emails) };
    },
  );

  for (const [action, change] of [
    ['pause', pauseCampaign],
    ['resume', resumeCampaign],
    ['cancel', cancelCampaign],
  ] as const) {
    app.post(
      `/api/campaigns/:id/${action}`,
      { guard: sender, schema: { params: idParamsSchema, response: { 200: campaignDetailSchema } } },
      async (request) => {
        await assertKeyMaySend(request.apiKey, request.signedIn.user.id, request.params.id);
        await change(ctx, request.signedIn.user.id, request.params.id);
        return campaigns.getCampaign(db, request.signedIn.user.id, request.params.id);
      },
    );
  }
};
