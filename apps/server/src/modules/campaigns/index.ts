// The campaigns module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { recoverCampaignSends } from './campaign-send.service.ts';
export { campaignJobs } from './campaigns.jobs.ts';
export { campaignRoutes } from './campaigns.routes.ts';
export { compileCampaign } from './campaigns.service.ts';
export { campaignTemplateRoutes } from './campaign-templates.routes.ts';
export { brandKitRoutes } from './brand-kit.routes.ts';
export { savedBlockRoutes } from './saved-blocks.routes.ts';
