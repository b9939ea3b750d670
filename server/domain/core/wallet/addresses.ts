// Payout addresses, checked per network with the networks' own encodings before anyone can bind
// one: a typo must be refused here, not discovered after the coins are gone. TRC20 (TRON):
// base58check of 21 bytes starting 0x41. ERC20 (Ethereum): 20 bytes of hex; in mixed case the
// EIP-55 checksum (keccak-256 of the lower-case hex) must match, all one case carries none. BTC:
// bech32 (witness v0, BIP 173) or bech32m (v1+, BIP 350) with the "bc" prefix, or base58check
// P2PKH (0x00) / P2SH (0x05). Mainnet only: a testnet address is refused like a malformed one.
import { bech32, bech32m, createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

const base58check = createBase58check(sha256);

/** The address encodings the wallet knows, and the networks written in each. */
export type AddressFormat = 'tron' | 'evm' | 'bitcoin';

const formatOfNetwork: Record<string, AddressFormat> = {
  TRC20: 'tron',
  ERC20: 'evm',
  BEP20: 'evm',
  BTC: 'bitcoin',
};

export const addressFormatOf = (network: string): AddressFormat | undefined => formatOfNetwork[network];

export type AddressCheck =
  | { ok: true; address: string }
  /** `wrong_network`: a valid address of another format (a TRON address given for ERC20, say). */
  | { ok: false; refusal: 'address_invalid' | 'address_wrong_network' | 'network_unknown' };

/** Longer text is not looked at (no network's address comes near it). */
const addressLengthMax = 100;

/** Checks `text` as an address of `network`, and answers it in its canonical form. */
export function checkAddress(network: string, text: string): AddressCheck {
  const format = addressFormatOf(network);
  if (!format) return { ok: false, refusal: 'network_unknown' };
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > addressLengthMax) return { ok: false, refusal: 'address_invalid' };
  const canonical = canonicalIn(format, trimmed);
  if (canonical !== undefined) return { ok: true, address: canonical };
  const other = (['tron', 'evm', 'bitcoin'] as const).some((candidate) => candidate !== format && canonicalIn(candidate, trimmed) !== undefined);
  return { ok: false, refusal: other ? 'address_wrong_network' : 'address_invalid' };
}

function canonicalIn(format: AddressFormat, text: string): string | undefined {
  if (format === 'tron') return tronAddress(text);
  if (format === 'evm') return evmAddress(text);
  return bitcoinAddress(text);
}

function decodeBase58check(text: string): Uint8Array | undefined {
  try {
    return base58check.decode(text);
  } catch {
    return undefined;
  }
}

function tronAddress(text: string): string | undefined {
  const bytes = decodeBase58check(text);
  return bytes && bytes.length === 21 && bytes[0] === 0x41 ? text : undefined;
}

/** The EIP-55 spelling of 40 lower-case hex digits. */
export function eip55(hexLower: string): string {
  const hash = bytesToHex(keccak_256(utf8ToBytes(hexLower)));
  let out = '0x';
  for (let index = 0; index < 40; index += 1) {
    const char = hexLower[index];
    out += parseInt(hash[index], 16) >= 8 ? char.toUpperCase() : char;
  }
  return out;
}

function evmAddress(text: string): string | undefined {
  const match = /^0x([0-9a-fA-F]{40})$/.exec(text);
  if (!match) return undefined;
  const digits = match[1];
  const checksummed = eip55(digits.toLowerCase());
  const oneCase = digits === digits.toLowerCase() || digits === digits.toUpperCase();
  if (!oneCase && checksummed !== text) return undefined;
  return checksummed;
}

function bitcoinAddress(text: string): string | undefined {
  if (/^bc1/i.test(text)) return segwitAddress(text);
  const bytes = decodeBase58check(text);
  return bytes && bytes.length === 21 && (bytes[0] === 0x00 || bytes[0] === 0x05) ? text : undefined;
}

/** BIP 173 / 350: witness v0 in bech32 with a 20- or 32-byte program, v1–16 in bech32m with 2–40 bytes. */
function segwitAddress(text: string): string | undefined {
  const lower = text.toLowerCase();
  // Either case, never both (bech32's own rule); the canonical form is lower case.
  if (text !== lower && text !== text.toUpperCase()) return undefined;
  for (const [coder, v0] of [[bech32, true], [bech32m, false]] as const) {
    const decoded = coder.decodeUnsafe(lower);
    if (!decoded || decoded.prefix !== 'bc' || decoded.words.length === 0) continue;
    const [version, ...rest] = decoded.words;
    if (version > 16 || (version === 0) !== v0) continue;
    const program = coder.fromWordsUnsafe(rest);
    if (!program) continue;
    const lengthOk = version === 0 ? program.length === 20 || program.length === 32 : program.length >= 2 && program.length <= 40;
    if (lengthOk) return lower;
  }
  return undefined;
}
