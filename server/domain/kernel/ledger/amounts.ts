// Exact amounts (the rules live in the wire contract, shared with the wallet pages).
export * from '../../../../src/api/contract/amounts.ts';
