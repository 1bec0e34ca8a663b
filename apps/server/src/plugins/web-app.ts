import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

const webDistDir = fileURLToPath(new URL('../../../web/dist', import.meta.url));

const API_PREFIXES = ['/api/', '/t/', '/u/', '/uploads/'];

/**
 * Serves the built single-page app: hashed assets with long caching, and index.html for every
 * other GET that is not an API path, so client-side routes survive a reload. Unknown API paths
 * answer a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, serve: boolean, distDir = webDistDir): Promise<void> {
  const built = serve && existsSync(distDir);
  if (serve && !built) app.log.warn({ webDistDir: distDir }, 'web app not built; only the API is served');
  if (built)
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies of its text files (apps/web/vite.config.ts): sent to a
      // browser that accepts them, with Vary: Accept-Encoding.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        reply.header(
          'cache-control',
          filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (
      built &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((p) => path.startsWith(p))
    ) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: `No route for ${request.method} ${path}` });
  });
}
