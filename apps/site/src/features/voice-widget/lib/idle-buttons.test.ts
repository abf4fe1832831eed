import { describe, expect, it } from 'vitest';
import { idleButtons } from './idle-buttons';

const labels = (input: Parameters<typeof idleButtons>[0]) => idleButtons(input).map((b) => b.label);
const base = { connecting: false, voice: true, chat: true, chatElsewhere: false };

describe('idleButtons', () => {
  it('offers ENGAGE then "Type instead" in a voice and chat widget', () => {
    expect(idleButtons(base)).toEqual([
      { action: 'engage', label: 'ENGAGE', kind: 'primary', busy: false },
      { action: 'chat', label: 'Type instead', kind: 'secondary', busy: false },
    ]);
  });

  it('offers one of them in a voice-only or chat-only widget, none when neither', () => {
    expect(labels({ ...base, chat: false })).toEqual(['ENGAGE']);
    expect(labels({ ...base, voice: false })).toEqual(['Type instead']);
    expect(labels({ ...base, voice: false, chat: false })).toEqual([]);
  });

  it('leaves out "Type instead" when a notice offers it or the chat is loading', () => {
    expect(labels({ ...base, chatElsewhere: true })).toEqual(['ENGAGE']);
  });

  it('while connecting, shows a busy CONNECTING... and Cancel, whatever the mode', () => {
    expect(idleButtons({ ...base, connecting: true, voice: false })).toEqual([
      { action: 'engage', label: 'CONNECTING...', kind: 'primary', busy: true },
      { action: 'cancel', label: 'Cancel', kind: 'secondary', busy: false },
    ]);
  });
});
