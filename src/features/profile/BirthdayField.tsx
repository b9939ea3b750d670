// The birthday of the personal data form: a button showing the date, a wheel picker limited to
// the ages the server accepts (contract birthdayRange: 18 to 120), and a clear button. The picker
// opens at the stored date, or 30 years back when there is none: nearer most users than today
// (where antd-mobile would open) or the youngest age allowed.
import { useMemo, useState } from 'react';
import { DatePicker } from 'antd-mobile';
import { CloseCircleFill } from 'antd-mobile-icons';
import { useLingui } from '@lingui/react/macro';
import { DateTime } from 'luxon';
import { birthdayRange } from '../../api/contract/accounts.ts';
import { formatCalendarDate } from '../../lib/time.ts';

const isoDate = 'yyyy-MM-dd';
const toDate = (iso: string) => DateTime.fromFormat(iso, isoDate).toJSDate();
export const todayIso = () => DateTime.local().toFormat(isoDate);
export const openingYearsAgo = 30;

/** A form control: Form.Item gives it the stored "YYYY-MM-DD" (or nothing), onChange and its label's id. */
export function BirthdayField({ value, onChange, id }: {
  value?: string; onChange?: (value: string | undefined) => void; id?: string;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const range = birthdayRange(todayIso());
  // One Date per value: a new one on every render would move the wheels under the user's finger.
  const opening = useMemo(() => toDate(value ?? DateTime.local().minus({ years: openingYearsAgo }).toFormat(isoDate)), [value]);
  return (
    <div className="choice-field">
      <button type="button" id={id} className="field-button" aria-haspopup="dialog"
        aria-label={value ? `${t`Birthday`} ${value}` : undefined} onClick={() => setOpen(true)}>
        {value ? formatCalendarDate(value) : <span className="placeholder">{t`Choose a date`}</span>}
      </button>
      {value && (
        <button type="button" className="field-clear" aria-label={t`Clear birthday`} onClick={() => onChange?.(undefined)}>
          <CloseCircleFill aria-hidden="true" />
        </button>
      )}
      <DatePicker visible={open} onClose={() => setOpen(false)} value={opening}
        min={toDate(range.earliest)} max={toDate(range.latest)}
        onConfirm={(date) => onChange?.(DateTime.fromJSDate(date).toFormat(isoDate))}
        title={t`Birthday`} confirmText={t`Confirm`} cancelText={t`Cancel`} />
    </div>
  );
}
