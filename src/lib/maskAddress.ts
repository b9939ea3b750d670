// Where a code went, shown without the whole address (someone may be looking at the screen):
// enough for the owner to recognise their mailbox or phone, not enough to read it off.

/** "jane@example.com" → "j***@example.com": the first character and the domain. */
export function maskEmail(email: string): string {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 1) return '***';
  const [first] = Array.from(trimmed);
  return `${first}***${trimmed.slice(at)}`;
}

/** "+44 •••• 1234": the calling code and the last four digits (two of a number that short). */
export function maskPhone(countryCode: string, nationalNumber: string): string {
  const digits = nationalNumber.replace(/\D/g, '');
  const shown = digits.length > 6 ? 4 : 2;
  return `+${countryCode} •••• ${digits.slice(-shown)}`;
}
