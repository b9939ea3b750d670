// One check for every text a caller sends, before any schema or handler sees it: control
// characters (NUL among them, which PostgreSQL cannot store in text and answered with a 500),
// C1 controls, unpaired surrogates, and the bidirectional overrides that make a name read other
// than it is. Tab, line feed and carriage return stay allowed for multi-line fields.
import { badRequest } from './errors.ts';

const unsafeText = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Nesting beyond this is refused outright: no contract goes deeper. */
const depthMax = 8;

/** The path of the first unsafe string (or key) in `value`, or undefined when all are safe. */
export function findUnsafeText(value: unknown, at = '', depth = 0): string | undefined {
  if (typeof value === 'string') return unsafeText.test(value) ? at || '(value)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (depth >= depthMax) return at || '(value)';
  for (const [key, field] of Object.entries(value)) {
    const fieldPath = at ? `${at}.${key.slice(0, 40)}` : key.slice(0, 40);
    if (unsafeText.test(key)) return fieldPath;
    const found = findUnsafeText(field, fieldPath, depth + 1);
    if (found) return found;
  }
  return undefined;
}

export function assertSafeText(value: unknown, where: string) {
  const found = findUnsafeText(value);
  if (found) {
    throw badRequest('invalid_request', `Invalid request: ${where} field ${found} contains characters that are not allowed.`);
  }
}
