// Where a refused call's message goes: under the field its server error code concerns, on
// antd-mobile Form's own error line, or else under the form. Each form names which of the
// server's error codes (contract/common.ts `result.error`) belong to which of its fields, so
// the account, wallet and trading forms share this one mechanism with tables of their own.
import type { FormInstance } from 'antd-mobile/es/components/form';
import type { ApiError } from '../../api/baseQuery.ts';
import type { ErrorCode } from '../../api/contract/common.ts';
import { failureText } from '../../api/errorMessages.ts';

/** Which field of a form each error code concerns; a code not listed concerns the whole form. */
export type FieldsByCode = Partial<Record<ErrorCode, string>>;

/** A refusal as placed: `field` when it is shown under that field, else it belongs under the form. */
export interface PlacedFailure { message: string; field?: string }

/** The field a refusal concerns: only a typed API error names one (a network failure never does). */
export function fieldOf(error: unknown, fieldsByCode: FieldsByCode): string | undefined {
  const failure = error as Partial<ApiError> | undefined;
  if (failure?.kind !== 'api' || !failure.error) return undefined;
  return fieldsByCode[failure.error as ErrorCode];
}

/**
 * Shows `error` under its field when it concerns one (the field's other errors give way to it)
 * and answers where it went; the caller shows a refusal without a field under the form. With
 * `fallbackField`, every refusal goes under a field: that one when its code names none (a part
 * of a form with no line of its own, like the "Send code" button under the code field).
 */
export function placeFailure(form: FormInstance, error: unknown, fieldsByCode: FieldsByCode,
  fallbackField?: string): PlacedFailure {
  const message = failureText(error);
  const field = fieldOf(error, fieldsByCode) ?? fallbackField;
  if (field) form.setFields([{ name: field, errors: [message] }]);
  return { message, field };
}
