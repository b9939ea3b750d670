// The difference between server time and this device's clock, learnt from the status check.
// Encrypted bodies carry the server's time so a wrong phone clock does not get them refused.
let offsetMs = 0;

export const serverNow = () => Date.now() + offsetMs;

export function learnServerTime(serverTimeMs: number, sentAtMs: number, receivedAtMs: number) {
  offsetMs = Math.round(serverTimeMs - (sentAtMs + receivedAtMs) / 2);
}

export const serverOffsetMs = () => offsetMs;
