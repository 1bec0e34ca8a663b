import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  campaignTemplateListSchema,
  campaignTemplateSchema,
  createCampaignTemplateBodySchema,
  renameCampaignTemplateBodySchema,
} from '@sendwell/contract/campaign-templates';
import { idParamsSchema } from '@sendwell/contract/common';
import type { AppContext } from '../../context.ts';
import { requireUser } from '../auth/index.ts';
import * as templates from './campaign-templates.service.ts';

/**
 * Route table (signed-in, scoped to the user): the account's saved campaign templates. The gallery
 * of starting templates ships in the contract (galleryTemplates) and needs no route.
 *   GET    /api/campaign-templates
 *   POST   /api/campaign-templates      {name, subject, preheader, blocks | html}
 *   PATCH  /api/campaign-templates/:id  {name}
 *   DELETE /api/campaign-templates/:id
 */
export const campaignTemplateRoutes: FastifyPluginAsyncZod<AppContext> = async (app, ctx) => {
  const { db, config } = ctx;
  const signedIn = requireUser(db, config);

  app.get(
    '/api/campaign-templates',
    { guard: signedIn, schema: { response: { 200: campaignTemplateListSchema } } },
    async (request) => templates.templatesOf(db, request.signedIn.user.id),
  );

  app.post(
    '/api/campaign-templates',
    { guard: signedIn, schema: { body: createCampaignTemplateBodySchema, response: { 201: campaignTemplateSchema } } },
    async (request, reply) =>
      reply.status(201).send(await templates.createTemplate(db, request.signedIn.user.id, request.body)),
  );

  app.patch(
    '/api/campaign-templates/:id',
    {
      guard: signedIn,
      schema: {
        params: idParamsSchema,
        body: renameCampaignTemplateBodySchema,
        response: { 200: campaignTemplateSchema },
      },
    },
    async (request) => templates.renameTemplate(db, request.signedIn.user.id, request.params.id, request.body.name),
  );

  app.delete(
    '/api/campaign-templates/:id',
    { guard: signedIn, schema: { params: idParamsSchema } },
    async (request, reply) => {
      await templates.deleteTemplate(db, request.signedIn.user.id, request.params.id);
      return reply.status(204).send();
    },
  );
};
