// A refusal that carries its bound names it (issue 19 #8): translateError fills a registered
// message with the values of the refusal's result, and leaves a message whose values did not come
// to the server's own text.
import { describe, expect, it } from 'vitest';
import { translateError } from '../../src/api/errorMessages.ts';
import { registerErrorMessagesWithValues } from '../../src/api/errorValues.ts';
import '../../src/entities/trade/tradeTexts.ts';

describe('translateError with the values of a refusal', () => {
  it("names the trading bounds the server sends", () => {
    expect(translateError('quantity_too_small', { error: 'quantity_too_small', quantityMin: '0.0010', quantityMax: '100.0000' }))
      .toBe('The minimum quantity is 0.0010.');
    expect(translateError('margin_too_large', { error: 'margin_too_large', marginMin: '5.000000', marginMax: '1000.000000' }))
      .toBe('The maximum margin is 1000.000000 USDT.');
  });

  it('gives no message when a value is missing, so the caller shows the server text', () => {
    registerErrorMessagesWithValues({ stake_too_small: { message: { id: 'test.stakeMin', message: 'At least {stakeMin}.' }, values: ['stakeMin'] } });
    expect(translateError('stake_too_small', { error: 'stake_too_small' })).toBeUndefined();
    expect(translateError('stake_too_small', { stakeMin: 10 })).toBe('At least 10.');
  });
});
