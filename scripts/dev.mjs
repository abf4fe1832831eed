// `npm run dev`: the Engage server on PORT (default 8787) and Vite's hot-reloading site in front of it.
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '8787';
const children = [
  spawn(process.execPath, ['--conditions=source', '--import', 'tsx', '--watch', 'apps/server/src/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: port },
  }),
  spawn('npx', ['vite', '--config', 'apps/site/vite.config.ts', 'apps/site'], {
    stdio: 'inherit',
    env: { ...process.env, ENGAGE_SERVER_URL: `http://127.0.0.1:${port}` },
  }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) =>
  c.on('exit', (code) => {
    if (code) {
      stop();
      process.exitCode = code;
    }
  }),
);
