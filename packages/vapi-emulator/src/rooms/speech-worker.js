// Speech synthesis off the main thread: mespeak (eSpeak compiled to JavaScript) takes 0.5–1 s of CPU
// per sentence, which would stall every call room's audio if it ran on the server's event loop.
// Messages in: { id, text }. Messages out: { id, wav } (a transferred Uint8Array) or { id, error }.
import { createRequire } from 'node:module';
// eslint-disable-next-line import-x/order -- the require() calls below must follow console.warn's silencing
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
// mespeak warns "Not in browser" when loaded in Node; expected here (we only ask for raw WAV data).
console.warn = () => undefined;
const meSpeak = require('mespeak');
meSpeak.loadConfig(require('mespeak/src/mespeak_config.json'));
meSpeak.loadVoice(require('mespeak/voices/en/en-us.json'));

parentPort.on('message', ({ id, text }) => {
  try {
    const wav = meSpeak.speak(text, { rawdata: 'buffer', speed: 165 });
    if (!wav || wav.byteLength <= 44) return parentPort.postMessage({ id, error: 'nothing was synthesised' });
    const copy = new Uint8Array(wav.byteLength);
    copy.set(wav);
    parentPort.postMessage({ id, wav: copy }, [copy.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
