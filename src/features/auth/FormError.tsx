// A refusal shown under the form that caused it, where the eye already is: a toast would vanish
// with the wait it names. Announced to assistive technology as it appears.
export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="form-error" style={{ color: 'var(--adm-color-danger)', fontSize: 14, padding: '8px 12px 0' }}>
      {message}
    </p>
  );
}
