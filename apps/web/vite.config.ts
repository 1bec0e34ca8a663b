import { defineConfig, loadEnv } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

/** recharts and the packages only it depends on. */
const RECHARTS_ONLY =
  /node_modules[\\/](recharts|@reduxjs|redux|redux-thunk|react-redux|immer|reselect|es-toolkit|decimal\.js-light|eventemitter3|victory-vendor|d3-[a-z-]+|internmap|tiny-invariant|react-is)[\\/]/;

// Resolved without node:path so this file type-checks with the browser-only tsconfig of apps/web.
const webRoot = decodeURIComponent(new URL('.', import.meta.url).pathname);
const srcDir = decodeURIComponent(new URL('./src', import.meta.url).pathname);

export default defineConfig(({ mode }) => {
  // Prefix '' loads every variable, including API_PORT from the shell environment.
  const env = loadEnv(mode, webRoot, '');
  const apiTarget = `http://127.0.0.1:${env.API_PORT || '5000'}`;
  const proxyOptions = { target: apiTarget, changeOrigin: false, xfwd: true };

  return {
    root: webRoot,
    plugins: [react(), tailwindcss()],
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
