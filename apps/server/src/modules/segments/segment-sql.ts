/**
 * Segment rules compile to SQL in segments.repo.ts. This path stays for the delivery module and the
 * segments bench, which import it and are being rewritten elsewhere; new code imports the repo
 * (within segments) or goes through segments.service.ts.
 */
export { compileConditions, dateComparison, tagNeedle } from './segments.repo.ts';
