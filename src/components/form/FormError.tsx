// A refusal shown under the form that caused it, where the eye already is: a toast would vanish
// with the wait it names, and cover the button. A refusal shown under its field (fieldErrors.ts)
// is on antd-mobile's error line, which is not announced: it is told here to assistive technology
// only, as it appears.
import type { PlacedFailure } from './fieldErrors.ts';
import './form.css';

export function FormError({ message, field }: Partial<PlacedFailure>) {
  if (!message) return null;
  return <p role="alert" className={field ? 'form-announcement' : 'form-error'}>{message}</p>;
}
