/**
 * `npm run dev`: the site and the elements from source (Vite, live reload) on http://localhost:5173,
 * with /rest, /functions and /media proxied to the data server started beside it on port 8787.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createServer, type Plugin } from 'vite';

const root = resolve(import.meta.dirname, '..');
const apiPort = Number(process.env.DEV_API_PORT ?? 8787);
const api = `http://localhost:${apiPort}`;

const data = spawn(process.execPath, ['--import', 'tsx', resolve(root, 'server/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: String(apiPort), SKIP_BUILD: '1' },
});
process.on('exit', () => data.kill());

/** The pages include /widgets/exp-widgets.js; in development that is the source entry. */
const widgetsFromSource: Plugin = {
  name: 'exp-widgets-from-source',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url?.startsWith('/widgets/exp-widgets.js') || req.url?.startsWith('/widgets/exp-widgets.bundle.js'))
        req.url = `/@fs${root}/widgets/index.ts`;
      next();
    });
  },
};

const server = await createServer({
  configFile: resolve(root, 'vite.config.ts'),
  mode: 'site',
  plugins: [widgetsFromSource],
  server: {
    port: Number(process.env.PORT ?? 5173),
    fs: { allow: [root] },
    proxy: Object.fromEntries(['/rest', '/functions', '/media'].map((p) => [p, { target: api, changeOrigin: true }])),
  },
});
await server.listen();
server.printUrls();
