// The aliases module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export {
  aliasForAddress,
  aliasHasDestination,
  mayAutoReply,
  ownAlias,
  ruleOfAlias,
  takeRoundRobinTurn,
} from './alias-lookup.ts';
export type { AliasForMail, AliasWithDomain } from './aliases.repo.ts';
export { aliasRoutes } from './aliases.routes.ts';
export { addressOf } from './aliases.service.ts';
export { decideRoute, LOOP_HEADER, ruleMatches, type RoutingDecision, type RoutingMessage } from './routing.ts';
