import type { FastifyReply } from 'fastify';

/** The total of a paged list travels in headers: X-Total-Count, and X-Total-Count-Exact: false when it is a lower bound. */
export function setTotalHeaders(reply: FastifyReply, page: { total: number; exact?: boolean }): void {
  reply.header('x-total-count', String(page.total));
  if (page.exact === false) reply.header('x-total-count-exact', 'false');
}
