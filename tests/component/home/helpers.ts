import { vi } from 'vitest';

/** A WebSocket that never connects, so the live panel on home stays quiet in jsdom. */
export function stubWebSocket() {
  class SilentWebSocket {
    readyState = 0;
    onopen = null;
    onmessage = null;
    onclose = null;
    onerror = null;
    send() {}
    close() {}
  }
  vi.stubGlobal('WebSocket', SilentWebSocket);
}
