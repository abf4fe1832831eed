import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { widgetTestConfig } from '../testing/public-config';
import { engageButton, inCall, renderWidget, typeIn, widget } from '../testing/render-widget';

// After a call in which the assistant said it did not know, the ended call's transcript offers an
// answer by mail for that call (POST /api/answer-requests with the call's id).

const offer = () => widget.queryByRole('form', { name: /owner to answer you by mail/ });

function renderWithCall() {
  return renderWidget({
    strict: true,
    config: { ...widgetTestConfig, answerByMail: { keepDays: 30 } },
    configure: (client) => {
      client.startImpl = async () => ({ id: 'call-1' });
    },
  });
}

afterEach(() => vi.restoreAllMocks());

describe('the offer of an answer by mail after a call', () => {
  it('comes once the call has ended, for that call, and sends the address with its id', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response(JSON.stringify({ questions: 1, keepDays: 30 }), { status: 201 }));
    const t = renderWithCall();
    await inCall(t);
    act(() => t.sdk.client.transcript('user', 'Do you open on Sundays?'));
    act(() => t.sdk.client.transcript('assistant', "I don't know that from my documents."));
    expect(offer()).toBeNull(); // not while the call goes on
    await t.user.click(widget.getByRole('button', { name: 'END' }));
    act(() => t.sdk.client.emit('call-end'));
    expect(engageButton()).toBeVisible();
    await waitFor(() => expect(offer()).not.toBeNull());

    typeIn(widget.getByRole('textbox', { name: 'Your email address' }), 'visitor@example.com{Enter}');
    expect(await widget.findByText(/answer will be mailed to the address you gave/)).toBeVisible();
    const [url, init] = fetch.mock.calls.at(-1)!;
    expect(String(url)).toBe(`${window.location.origin}/api/answer-requests`);
    expect(JSON.parse(String(init?.body))).toEqual({
      conversation: { kind: 'call', id: 'call-1' },
      email: 'visitor@example.com',
    });
  });

  it('is not made after a call the assistant answered throughout, and goes when declined', async () => {
    const t = renderWithCall();
    await inCall(t);
    act(() => t.sdk.client.transcript('assistant', 'We open at nine.'));
    act(() => t.sdk.client.emit('call-end'));
    expect(widget.getByRole('list', { name: 'Transcript' })).toBeVisible();
    expect(offer()).toBeNull();

    await inCall(t);
    act(() => t.sdk.client.transcript('assistant', "I'm not sure about that."));
    act(() => t.sdk.client.emit('call-end'));
    await waitFor(() => expect(offer()).not.toBeNull());
    await t.user.click(widget.getByRole('button', { name: 'No, thanks' }));
    expect(offer()).toBeNull();
    expect(widget.getByRole('list', { name: 'Transcript' })).toBeVisible();
  });
});
