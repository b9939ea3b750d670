// The random source of the live simulated feed: uniform doubles from the operating system's
// cryptographically secure generator (node:crypto randomBytes), so no one can recover the
// generator from public ticks and predict the next one (issue 18). Bytes are drawn 64 KiB at a
// time because a system call per tick and symbol would cost more than the model itself.
import { randomBytes } from 'node:crypto';

/** A function answering uniform numbers in [0, 1). */
export type RandomSource = () => number;

const bufferBytes = 64 * 1024;
const bytesPerDouble = 8;
const twoPower26 = 2 ** 26;
const twoPower53 = 2 ** 53;

/**
 * A generator of uniform doubles in [0, 1) with 53 random bits each (every double of the form
 * k / 2^53), from buffered secure bytes. Each call of this function makes an independent buffer.
 */
export function secureRandom(): RandomSource {
  let buffer = randomBytes(bufferBytes);
  let offset = 0;
  return () => {
    if (offset + bytesPerDouble > buffer.length) {
      buffer = randomBytes(bufferBytes);
      offset = 0;
    }
    // 27 high bits and 26 low bits make the 53 bits of a double's mantissa.
    const high = buffer.readUInt32BE(offset) >>> 5;
    const low = buffer.readUInt32BE(offset + 4) >>> 6;
    offset += bytesPerDouble;
    return (high * twoPower26 + low) / twoPower53;
  };
}
