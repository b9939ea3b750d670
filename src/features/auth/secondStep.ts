// The second step of a login into an account with Google Authenticator bound (issue 18). Whatever
// the first factor (password, e-mail or phone code, wallet, OpenID), the server answers
// google_code_required with a login ticket; every form sends the user to /login?loginTicket=…,
// where the login page asks for the code. The OpenID callback lands on the same address, so
// there is one second step, reached one way.
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ApiError } from '../../api/baseQuery.ts';

/** The ticket of a google_code_required refusal, if the server gave one. */
export function loginTicketOf(error: unknown): string | undefined {
  const failure = error as ApiError | undefined;
  if (failure?.kind !== 'api' || failure.error !== 'google_code_required') return undefined;
  return failure.loginTicket;
}

/** Goes to the login page's second step with a ticket (replacing the form in the history). */
export function useAskSecondStep() {
  const navigate = useNavigate();
  return useCallback((loginTicket: string) => {
    navigate(`/login?${new URLSearchParams({ loginTicket })}`, { replace: true });
  }, [navigate]);
}
