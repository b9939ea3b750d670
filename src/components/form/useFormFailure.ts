// A form's refusal from the server, placed by fieldErrors.ts: the hook keeps what goes under the
// form (and what assistive technology is told) until the next submit, and clears a field's
// server error as soon as that field changes — antd-mobile re-validates only fields with rules,
// so an error on a field without rules would otherwise outlive the value it was about.
import { useCallback, useRef, useState } from 'react';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { placeFailure, type FieldsByCode, type PlacedFailure } from './fieldErrors.ts';

export interface FormFailure {
  /** The last refusal, for <FormError {...failure.placed} />. */
  placed: PlacedFailure | undefined;
  /**
   * Places a refusal by the form's table, or by the table a part of the form brings (with the
   * field its other refusals go under); answers where it went.
   */
  show(error: unknown, part?: { fieldsByCode: FieldsByCode; fallbackField?: string }): PlacedFailure;
  /** Forgets the last refusal and the field errors it set (call when submitting again). */
  clear(): void;
  /** For <Form onValuesChange>: a changed field loses the server's error about it. */
  onValuesChange(changed: Record<string, unknown>): void;
}

export function useFormFailure(form: FormInstance, fieldsByCode: FieldsByCode): FormFailure {
  const [placed, setPlaced] = useState<PlacedFailure>();
  const serverFields = useRef(new Set<string>());
  const show = useCallback((error: unknown, part?: { fieldsByCode: FieldsByCode; fallbackField?: string }) => {
    const next = placeFailure(form, error, part?.fieldsByCode ?? fieldsByCode, part?.fallbackField);
    if (next.field) serverFields.current.add(next.field);
    setPlaced(next);
    return next;
  }, [form, fieldsByCode]);
  const forget = useCallback((names: string[]) => {
    const cleared = names.filter((name) => serverFields.current.delete(name));
    if (cleared.length > 0) form.setFields(cleared.map((name) => ({ name, errors: [] })));
  }, [form]);
  const clear = useCallback(() => {
    setPlaced(undefined);
    forget([...serverFields.current]);
  }, [forget]);
  const onValuesChange = useCallback((changed: Record<string, unknown>) => forget(Object.keys(changed)), [forget]);
  return { placed, show, clear, onValuesChange };
}
