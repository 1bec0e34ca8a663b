import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** recharts and the packages only it depends on. */
const RECHARTS_ONLY =
  /node_modules[\\/](recharts|@reduxjs|redux|redux-thunk|react-redux|immer|reselect|es-toolkit|decimal\.js-light|eventemitter3|victory-vendor|d3-[a-z-]+|internmap|tiny-invariant|react-is)[\\/]/;

const webRoot = `${path.dirname(fileURLToPath(import.meta.url))}/`;
const srcDir = path.join(webRoot, 'src');

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Writes a Brotli (.br, best quality) and a gzip (.gz) copy beside every text file of the build, which
 * the server sends to a browser that accepts them (@fastify/static's preCompressed, plugins/web-app.ts):
 * compressed once at build time, never per request. Files under 1 KB, and copies no smaller, are left out.
 */
function precompress(): Plugin {
  return {
    name: 'sendwell-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? `${webRoot}dist`;
      await Promise.all(
        Object.keys(bundle)
          .filter((file) => /\.(js|css|html|svg|json)$/.test(file))
          .map(async (file) => {
            const full = path.join(outDir, file);
            if ((await stat(full)).size < 1024) return;
            const content = await readFile(full);
            const copies: [string, Buffer][] = [
              ['br', await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })],
              ['gz', await gzipped(content, { level: 9 })],
            ];
            for (const [extension, compressed] of copies) {
              if (compressed.length < content.length) await writeFile(`${full}.${extension}`, compressed);
            }
          }),
      );
    },
  };
}

export default defineConfig(({ mode }) => {
  // Prefix '' loads every variable, including API_PORT from the shell environment.
  const env = loadEnv(mode, webRoot, '');
  const apiTarget = `http://127.0.0.1:${env.API_PORT || '5000'}`;
  const proxyOptions = { target: apiTarget, changeOrigin: false, xfwd: true };

  return {
    root: webRoot,
    plugins: [react(), tailwindcss(), precompress()],
    resolve: {
      alias: { '@': srcDir },
    },
    build: {
      outDir: `${webRoot}dist`,
      emptyOutDir: true,
      sourcemap: false,
      rolldownOptions: {
        output: {
          // Libraries change less often than the app: separate chunks stay cached across releases.
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 20 },
              // Libraries only lazy pages use get chunks of their own, so the first page does not load them:
              // @dnd-kit for the campaign editor, papaparse for the contacts import preview, recharts for reports.
              // lucide-react stays out of 'vendor' so that each page carries only the icons it draws.
              { name: 'dnd-kit', test: /node_modules[\\/]@dnd-kit[\\/]/, priority: 15 },
              { name: 'papaparse', test: /node_modules[\\/]papaparse[\\/]/, priority: 15 },
              // 'vendor' holds only the libraries the first page runs ('$initial': reached by static imports
              // from the entry). Libraries only lazy pages use (most Radix components: select, tabs, menus…)
              // are left to automatic chunking and load with the pages that use them.
              {
                name: 'vendor',
                test: (id: string) =>
                  /node_modules[\\/]/.test(id) &&
                  !/node_modules[\\/]lucide-react[\\/]/.test(id) &&
                  !RECHARTS_ONLY.test(id),
                tags: ['$initial'],
                priority: 5,
              },
              // recharts and the packages only it uses, for the campaign report's chart. Below 'vendor', so
              // that what recharts shares with the first page (clsx, use-sync-external-store) stays there.
              { name: 'recharts', test: RECHARTS_ONLY, priority: 1 },
            ],
          },
        },
      },
    },
    server: {
      proxy: {
        '/api': proxyOptions,
        // Tracking (/t/o/:token, /t/c/:token) and unsubscribe (/u/:token) links. Written as regular
        // expressions so that client routes such as /unlimited-setup are not proxied.
        '^/t/.*': proxyOptions,
        '^/u/.*': proxyOptions,
      },
    },
    preview: {
      proxy: {
        '/api': proxyOptions,
        '^/t/.*': proxyOptions,
        '^/u/.*': proxyOptions,
      },
    },
  };
});
