// The sending module's public face: what other modules, app.ts, jobs.ts, main.ts, app-context.ts and cli/ use
// of it. Code outside the module imports only from here (eslint-rules/server-boundaries.js).
export { sendFeed, signingKeyOf, type Feed, type SigningKey } from './feed.ts';
