// An e-mail in a back-office table: it may wrap only after its @, never mid-word (issue 19: at
// 1280 px "operator@bourse.loc|al"); each side is cut with an ellipsis if longer than the column,
// the whole address in the title.
import type { ReactNode } from 'react';

export function EmailText({ email, children }: { email: string | null | undefined; children?: ReactNode }) {
  if (!email) return <>—{children}</>;
  const at = email.lastIndexOf('@');
  const parts = at > 0 ? [email.slice(0, at + 1), email.slice(at + 1)] : [email];
  return (
    <span className="admin-email" title={email}>
      {parts.map((part) => <span key={part} className="admin-email-part">{part}</span>)}
      {children}
    </span>
  );
}
