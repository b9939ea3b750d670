// Error messages that name values of the refusal's result ("The minimum quantity is {quantityMin}."):
// registered by the features whose refusals carry such values (trading), so the first screen's
// translateError (errorMessages.ts) stays a plain lookup (DESIGN §8 budget).
import type { MessageDescriptor } from '@lingui/core';
import { i18n } from '../lib/i18n.ts';
import type { ErrorCode } from './contract/common.ts';
import { registerErrorMessages, type ErrorText } from './errorMessages.ts';

/**
 * Messages that name values of the refusal's result (`values` lists them): such a message is
 * used only when the refusal carries them all, since production builds strip a descriptor's
 * source text and with it any default for a missing value.
 */
export function registerErrorMessagesWithValues(more: Partial<Record<ErrorCode, { message: MessageDescriptor; values: readonly string[] }>>) {
  const texts: Partial<Record<ErrorCode, ErrorText>> = {};
  for (const [code, entry] of Object.entries(more)) {
    if (!entry) continue;
    texts[code as ErrorCode] = (details) => {
      const values: Record<string, string | number> = {};
      for (const [key, value] of Object.entries(details)) {
        if (typeof value === 'string' || typeof value === 'number') values[key] = value;
      }
      if (entry.values.some((name) => !(name in values))) return undefined;
      // A named descriptor, not an object literal in the call: Lingui's extractor reads every i18n._({ … }) as a message.
      const withValues: MessageDescriptor = { ...entry.message, values: { ...entry.message.values, ...values } };
      return i18n._(withValues);
    };
  }
  registerErrorMessages(texts);
}
