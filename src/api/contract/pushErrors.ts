// Refusals of the push and price-alert calls (contract/push.ts), in their own file so the error
// list in common.ts can include them without importing the push contract.
export const pushErrorCodes = [
  /** The endpoint is not https, or points into a private, loopback or link-local network. */
  'push_endpoint_refused',
  /** p256dh is not a P-256 public key, or auth is not 16 bytes. */
  'push_keys_invalid',
  /** The endpoint belongs to another account and the keys sent are not the ones it was subscribed with. */
  'push_endpoint_taken',
  /** Too many active price alerts. */
  'price_alert_limit',
  /** The alert's price has more decimals than the symbol's quote precision, or is zero. */
  'price_alert_price_invalid',
] as const;
