// The plain values of the market contract (market.ts re-exports them). They live apart from the
// TypeBox schemas so the client can use them without bundling the schema library.
export const candlePeriods = ['1m', '5m', '15m', '30m', '1h', '4h', '1d', '1w', '1M'] as const;

export const candleLimitMax = 1000;

// Realtime socket at /api/ws (JSON text frames).
export const realtimePath = '/ws';
export const subscriptionsPerConnectionMax = 50;
export const heartbeatIntervalMs = 15_000;
