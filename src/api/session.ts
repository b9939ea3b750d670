// Session events the API layer raises and the user slice reacts to. Kept here so the API layer
// needs nothing from the features.
import { createAction } from '@reduxjs/toolkit';

/** The server answered 401: the token is no longer valid. */
export const sessionExpired = createAction('session/expired');

export interface SessionView { user: { token: string } }
