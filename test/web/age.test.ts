// Ages of cached data are said in the user's language, in the largest whole unit, never negative.
import { describe, expect, it } from 'vitest';
import { formatAge } from '../../src/lib/age.ts';

describe('formatAge', () => {
  const now = Date.UTC(2026, 10, 23, 12, 0, 0);

  it('says the largest whole unit that has passed', () => {
    expect(formatAge(now - 2 * 60_000 - 30_000, now, 'en-US')).toBe('2 min. ago');
    expect(formatAge(now - 45_000, now, 'en-US')).toBe('45 sec. ago');
    expect(formatAge(now - 3 * 3_600_000, now, 'en-US')).toBe('3 hr. ago');
    expect(formatAge(now - 86_400_000, now, 'en-US')).toBe('yesterday');
  });

  it('says now for a fresh or future time (a clock skew is not an age)', () => {
    expect(formatAge(now, now, 'en-US')).toBe('now');
    expect(formatAge(now + 5000, now, 'en-US')).toBe('now');
  });

  it('speaks the language', () => {
    expect(formatAge(now - 120_000, now, 'es-ES')).toBe('hace 2 min');
    expect(formatAge(now - 120_000, now, 'ko-KR')).toBe('2분 전');
  });
});
