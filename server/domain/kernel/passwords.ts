// Password hashing (argon2id) and the strength rule every new password must meet.
import { hash, verify } from '@node-rs/argon2';
import { randomInt } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { badRequest } from '../../lib/errors.ts';

// 2 is Algorithm.Argon2id (a const enum, which isolated modules cannot read).
const standardCost = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
/**
 * PASSWORD_HASH_COST=test: argon2id at 1 MiB and one pass, for the test suite only (issue 20: the
 * standard cost spent minutes of CI). Every hash records its own cost, so either kind verifies; a
 * server with DATABASE_URL refuses to start with it (main.ts), and it says so in its log.
 */
export const testPasswordCost = process.env.PASSWORD_HASH_COST === 'test';
const options = testPasswordCost ? { ...standardCost, memoryCost: 1024, timeCost: 1 } : standardCost;

/**
 * Argon2 runs of this process so far. Each costs ~19 MiB and tens of milliseconds of a core, so
 * the tests count them to show that refused requests did none.
 */
export const passwordWork = { hashes: 0, verifications: 0 };

export function hashPassword(password: string) {
  passwordWork.hashes += 1;
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  passwordWork.verifications += 1;
  try {
    return await verify(passwordHash, password, options);
  } catch {
    return false;
  }
}

/** A hash of a random password, verified against when an account is unknown, so timing tells nothing. */
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = () => (decoyHash ??= hashPassword(generatePassword()));

const meetsRule = (password: string) => /[A-Za-z]/.test(password) && /[0-9]/.test(password);

/**
 * The commonly used passwords that our rule would let through (ASVS V6.2.4 asks for at least the
 * 3000 most used of them): zxcvbn-ts's list of 49 233 passwords seen in breaches, by frequency,
 * those of 8 to 64 characters with a letter and a digit (5 183), compared in lower case. Read
 * when the first password is checked.
 */
let common: Set<string> | undefined;
export function commonPasswords(): Set<string> {
  common ??= new Set(dictionary['passwords-common'].map(String)
    .filter((word) => word.length >= 8 && word.length <= 64 && meetsRule(word)).map((word) => word.toLowerCase()));
  return common;
}

/**
 * Length is checked by the schema (8–64); here: a letter and a digit, not the account itself, and
 * not one of the passwords attackers try first.
 */
export function assertStrongPassword(password: string, account?: string) {
  if (!meetsRule(password)) {
    throw badRequest('password_weak', 'The password must contain at least one letter and one digit.');
  }
  if (account && password.toLowerCase() === account.toLowerCase()) {
    throw badRequest('password_weak', 'The password must not be the same as the account.');
  }
  if (commonPasswords().has(password.toLowerCase())) {
    throw badRequest('password_common', 'This password is one of the most commonly used ones, which attackers try first. Please choose another.');
  }
}

/** Characters a person cannot confuse when reading them off a screen. */
export const lookAlikeFreeAlphabet = 'ABCDEFGHJKMNPQRSTWXYZabcdefhijkmnprstwxyz2345678';

export function generatePassword(length = 12): string {
  for (;;) {
    let password = '';
    for (let i = 0; i < length; i += 1) password += lookAlikeFreeAlphabet[randomInt(lookAlikeFreeAlphabet.length)];
    if (/[A-Za-z]/.test(password) && /[0-9]/.test(password)) return password;
  }
}
