import Vapi from '@engage/voice';
import { audioElements, FakeDaily, installMediaStubs } from '@engage/voice/testing';
import { act, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LoadVoiceSdk } from '../lib/voice-client';
import { renderWidget, typeIn, viewMounted, widget } from '../testing/render-widget';

// The widget over the real voice SDK (@engage/voice), with the SDK's typed fake of Daily's call
// object playing the provider's room and a fake HTTP answer for the web call.

const WEB_CALL = {
  id: 'call-1',
  webCallUrl: 'https://engage.daily.co/room-1',
  artifactPlan: { videoRecordingEnabled: false },
  assistant: { voice: { provider: '11labs' } },
};

/** Timers the test runs by hand: the SDK's speaking detector ends speech 1 s after silence. */
function manualTimers() {
  const pending = new Map<number, () => void>();
  let next = 0;
  return {
    timers: {
      setTimeout: (callback: () => void) => {
        pending.set(++next, callback);
        return next;
      },
      clearTimeout: (handle: unknown) => void pending.delete(handle as number),
    },
    runAll() {
      const due = [...pending.values()];
      pending.clear();
      for (const callback of due) callback();
    },
  };
}

function setup(webCall: () => Response = () => Response.json(WEB_CALL, { status: 201 })) {
  installMediaStubs();
  const daily = new FakeDaily();
  const clock = manualTimers();
  const requests: { url: string; body: unknown }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return webCall();
  };
  const instances: Vapi[] = [];
  const loadSdk: LoadVoiceSdk = async () => (publicKey, apiBaseUrl) => {
    const vapi = new Vapi(publicKey, apiBaseUrl, undefined, undefined, {
      fetch,
      dailyFactory: daily,
      isMobile: () => false,
      timers: clock.timers,
    });
    instances.push(vapi);
    return vapi;
  };
  return { daily, clock, requests, instances, ...renderWidget({ loadSdk }) };
}

type Setup = ReturnType<typeof setup>;

/** ENGAGE, then the assistant joins the room, plays audio and says it is listening. */
async function connect(t: Setup) {
  await t.user.click(await widget.findByRole('button', { name: 'ENGAGE' }));
  // The view follows the SDK's start a moment later on a busy machine: waited for, not assumed.
  expect(await widget.findByRole('button', { name: 'CONNECTING...' })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await waitForJoin(t);
  act(() => {
    const call = t.daily.last;
    call.remoteJoins('Vapi Speaker');
    call.startTrack('audio');
    call.appMessage('listening');
  });
  await widget.findByRole('button', { name: 'END' });
}

/** Resolves once the SDK has joined the fake room. */
async function waitForJoin(t: Setup) {
  await widget.findByRole('button', { name: 'CONNECTING...' });
  await viewMounted(t);
  await waitFor(() => expect(t.daily.calls.at(-1)?.meetingState).toBe('joined-meeting'));
}

beforeEach(() => {
  document.body.innerHTML = '';
});

describe('The widget over @engage/voice and its Daily fake', () => {
  it('starts a web call for the page assistant with the public key, then shows the call', async () => {
    const t = setup();
    await connect(t);
    expect(t.requests).toEqual([
      { url: `${window.location.origin}/provider/call/web`, body: { assistantId: 'asst_index' } },
    ]);
    expect(widget.getByText('Listening')).toBeVisible();
    expect(widget.getAllByTestId('voice-wave-bar')).toHaveLength(5);
    expect(audioElements()).toHaveLength(1);
  });

  it('shows Speaking while the assistant is loud and Listening a second after it goes quiet', async () => {
    const t = setup();
    await connect(t);
    const bars = widget.getAllByTestId('voice-wave-bar');
    const quiet = bars.map((bar) => bar.style.transform);
    act(() => t.daily.last.audioLevel(0.12));
    expect(widget.getByText('Speaking')).toBeVisible();
    expect(bars.map((bar) => bar.style.transform)).not.toEqual(quiet);
    act(() => t.daily.last.audioLevel(0));
    expect(widget.getByText('Speaking')).toBeVisible();
    act(() => t.clock.runAll());
    expect(widget.getByText('Listening')).toBeVisible();
  });

  it('mutes the microphone at once', async () => {
    const t = setup();
    await connect(t);
    await t.user.click(widget.getByRole('button', { name: 'Mute microphone' }));
    expect(widget.getByRole('button', { name: 'Mute microphone' })).toHaveAttribute('aria-pressed', 'true');
    expect(t.instances[0]!.isMuted()).toBe(true);
  });

  it('END leaves the room and removes the audio element; the next call reuses the SDK instance', async () => {
    const t = setup();
    await connect(t);
    await t.user.click(widget.getByRole('button', { name: 'END' }));
    expect(await widget.findByRole('button', { name: 'ENGAGE' })).toBeVisible();
    await waitFor(() => expect(t.daily.last.destroyed).toBe(true));
    expect(audioElements()).toHaveLength(0);
    await connect(t);
    expect(t.instances).toHaveLength(1);
    expect(t.daily.calls).toHaveLength(2);
  });

  it('returns to ENGAGE when the assistant ends the call', async () => {
    const t = setup();
    await connect(t);
    act(() => t.daily.last.serverEnds());
    expect(await widget.findByRole('button', { name: 'ENGAGE' })).toBeVisible();
    expect(widget.getByRole('status')).toHaveTextContent('Call ended.');
    expect(widget.queryByRole('alert')).toBeNull();
  });

  it("captions the assistant's transcript messages, and a typed question reaches the room as add-message", async () => {
    const t = setup();
    await connect(t);
    const box = await widget.findByLabelText('Type a message');
    act(() => {
      t.daily.last.appMessage({ type: 'speech-update', status: 'started', role: 'assistant' });
      t.daily.last.appMessage({
        type: 'transcript',
        role: 'assistant',
        transcriptType: 'partial',
        transcript: 'Hello',
      });
    });
    expect(widget.getByRole('list', { name: 'Captions' })).toHaveTextContent('Hello');
    act(() =>
      t.daily.last.appMessage({
        type: 'transcript[transcriptType="final"]',
        role: 'assistant',
        transcriptType: 'final',
        transcript: 'Hello, how can I help?',
      }),
    );
    expect(widget.getByRole('list', { name: 'Captions' })).toHaveTextContent('Hello, how can I help?');
    typeIn(box, 'When do you open?{Enter}');
    expect(t.daily.last.sentMessages).toContainEqual({
      type: 'add-message',
      message: { role: 'user', content: 'When do you open?' },
    });
    expect(widget.getByRole('list', { name: 'Captions' })).toHaveTextContent('When do you open?');
  });

  it('explains a denied microphone', async () => {
    const t = setup();
    await t.user.click(widget.getByRole('button', { name: 'ENGAGE' }));
    await waitForJoin(t);
    act(() => t.daily.last.permissionDenied());
    expect(await widget.findByRole('alert')).toHaveTextContent('Microphone access is blocked.');
    expect(widget.getByRole('button', { name: 'ENGAGE' })).toBeVisible();
  });

  it('says so when the provider refuses the call', async () => {
    const t = setup(() => Response.json({ message: 'Assistant not found' }, { status: 404 }));
    await t.user.click(widget.getByRole('button', { name: 'ENGAGE' }));
    expect(await widget.findByRole('alert')).toHaveTextContent('The call could not be started.');
    expect(widget.getByRole('button', { name: 'ENGAGE' })).toBeVisible();
  });

  it('leaving the page ends the call: the room is destroyed and no audio element is left', async () => {
    const t = setup();
    await connect(t);
    t.unmount(); // the element ends its call once it is out of the page for good
    await waitFor(() => expect(t.daily.last.destroyed).toBe(true));
    expect(audioElements()).toHaveLength(0);
    expect(t.daily.last.listenerTotal()).toBe(0);
  });
});
