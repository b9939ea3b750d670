// The personal centre's avatar letter: a name's or an e-mail's first letter, never a phone's "+".
import { describe, expect, it } from 'vitest';
import { avatarLetter } from '../../src/features/profile/avatar.ts';

describe('avatarLetter', () => {
  it('takes the first letter of the name, then of the e-mail or guest name, in upper case', () => {
    expect(avatarLetter({ firstName: 'minji', account: 'x@example.com', accountType: 'email' })).toBe('M');
    expect(avatarLetter({ firstName: null, account: 'zoe@example.com', accountType: 'email' })).toBe('Z');
    expect(avatarLetter({ firstName: '  ', account: 'bob_42', accountType: 'guest' })).toBe('B');
  });

  it('keeps a whole character outside the basic plane and a non-Latin name', () => {
    expect(avatarLetter({ firstName: '𠀋子', account: '', accountType: 'email' })).toBe('𠀋');
    expect(avatarLetter({ firstName: '민지', account: '', accountType: 'phone' })).toBe('민');
  });

  it('has no letter for a phone account without a name, nor for a leading sign', () => {
    expect(avatarLetter({ firstName: null, account: '+44 7700900123', accountType: 'phone' })).toBeUndefined();
    // Stored before accountType existed: the "+" still never shows.
    expect(avatarLetter({ account: '+44 7700900123' })).toBeUndefined();
    expect(avatarLetter({})).toBeUndefined();
  });
});
