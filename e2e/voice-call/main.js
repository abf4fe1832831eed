// The test page's script: loads the built SDK and writes each event it emits into the page, where the
// Playwright spec reads them. Served by the spec's routes under /__e2e/ on the server's origin, with
// the server's Content-Security-Policy, so the SDK runs under the same policy as the site.
import Vapi from '/__e2e/sdk/index.js';
import { createCallThroughServer } from '/__e2e/sdk/server-call.js';

const params = new URLSearchParams(location.search);
const events = document.getElementById('events');
const startButton = document.getElementById('start');
const stopButton = document.getElementById('stop');
const serverStartButton = document.getElementById('server-start');

function record(name, detail) {
  const item = document.createElement('li');
  item.dataset.event = name;
  item.textContent = detail === undefined ? name : `${name} ${JSON.stringify(detail)}`;
  events.append(item);
}

document.addEventListener('securitypolicyviolation', (event) =>
  record('csp-violation', { directive: event.violatedDirective, blocked: event.blockedURI }),
);

const vapi = new Vapi(params.get('key') ?? '', `${location.origin}/provider`);
for (const name of ['call-start', 'call-end', 'speech-start', 'speech-end'])
  vapi.on(name, () => record(name));
vapi.on('message', (message) => record('message', message));
vapi.on('error', (error) => record('error', error));
vapi.on('call-start-failed', (event) => record('call-start-failed', event));
let loudest = 0;
vapi.on('volume-level', (level) => {
  if (level > loudest) {
    loudest = level;
    document.body.dataset.loudest = String(level);
  }
});

startButton.addEventListener('click', async () => {
  startButton.disabled = serverStartButton.disabled = true;
  stopButton.disabled = false;
  const call = await vapi.start(params.get('assistant') ?? 'asst_index');
  record('started', { id: call?.id ?? null });
});
// The WebSocket call created by this site's server with the private key (POST /api/calls/websocket),
// through the SDK's own start() option for it: the browser never holds the private key.
serverStartButton.addEventListener('click', async () => {
  startButton.disabled = serverStartButton.disabled = true;
  stopButton.disabled = false;
  const server = createCallThroughServer('/api/calls/websocket');
  const call = await vapi.start(
    params.get('assistant') ?? 'asst_index',
    undefined,
    undefined,
    undefined,
    undefined,
    {
      createCall: async (body, init) => {
        const created = await server(body, init);
        record('created', { status: 201, id: created.id ?? null });
        return created;
      },
    },
  );
  record('started', { id: call?.id ?? null });
});
stopButton.addEventListener('click', async () => {
  stopButton.disabled = true;
  await vapi.stop();
  record('stopped');
});
startButton.disabled = serverStartButton.disabled = false;
