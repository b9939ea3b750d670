// Operators' second factor: RFC 6238 TOTP (SHA-1, 6 digits, 30-second steps, the authenticator
// apps' defaults) through otplib. A code is accepted one step either side of the server's time,
// for clock drift, and only once: the caller stores the step a code matched and passes it back,
// so a code seen over a shoulder or replayed within its window is refused.
import { generate, generateSecret, generateURI, verify } from 'otplib';

export const totpPeriodSeconds = 30;

export const newTotpSecret = () => generateSecret();

/** The code an authenticator shows at `nowMs` (tests, the demo operator and the CLI's check). */
export const totpCode = (secret: string, nowMs: number) => generate({ secret, epoch: Math.floor(nowMs / 1000) });

export const totpUri = (secret: string, email: string) => generateURI({ issuer: 'Bourse back office', label: email, secret });

/** The time step `code` matched at `nowMs`, later than `afterStep`; undefined when it matched none. */
export async function matchTotp(secret: string, code: string, nowMs: number, afterStep?: bigint): Promise<bigint | undefined> {
  const result = await verify({
    secret, token: code, epoch: Math.floor(nowMs / 1000), epochTolerance: totpPeriodSeconds,
    ...(afterStep === undefined ? {} : { afterTimeStep: Number(afterStep) }),
  });
  return result.valid && 'timeStep' in result ? BigInt(result.timeStep) : undefined;
}
