import { joinFailureMessage, type SocketClose } from './websocket-protocol.js';

const CONNECT_TIMEOUT_MS = 15_000;

export interface SocketHandlers {
  message(data: ArrayBuffer | string): void;
  /** The socket closed; `opened` says whether it had opened (else the join fails with it). */
  closed(close: SocketClose, opened: boolean): void;
}

export interface OpeningSocket {
  ws: WebSocket;
  /** Resolves once open; rejects on the timeout, a close before opening, or `abort`. */
  opened: Promise<void>;
  /** Fails a join still connecting (the room was left or destroyed meanwhile). */
  abort(error: Error): void;
}

/**
 * Opens the WebSocket room's socket (binary frames as ArrayBuffers). A socket that does not open
 * within 15 s is closed and the join fails; the close code of one refused before opening says why.
 */
export function openSocket(
  createWebSocket: (url: string) => WebSocket,
  url: string,
  handlers: SocketHandlers,
): OpeningSocket {
  const ws = createWebSocket(url);
  ws.binaryType = 'arraybuffer';
  let abort!: (error: Error) => void;
  const opened = new Promise<void>((resolve, reject) => {
    let isOpen = false;
    const timer = setTimeout(() => {
      reject(new Error('The call room did not answer in time.'));
      ws.close();
    }, CONNECT_TIMEOUT_MS);
    abort = (error) => {
      clearTimeout(timer);
      reject(error);
    };
    ws.onopen = () => {
      isOpen = true;
      clearTimeout(timer);
      resolve();
    };
    ws.onmessage = (event: MessageEvent<ArrayBuffer | string>) => handlers.message(event.data);
    ws.onerror = () => {
      // A close event always follows with the code; the error event itself carries nothing.
    };
    ws.onclose = (event) => {
      clearTimeout(timer);
      if (!isOpen) reject(new Error(joinFailureMessage(event)));
      handlers.closed(event, isOpen);
    };
  });
  return { ws, opened, abort };
}
