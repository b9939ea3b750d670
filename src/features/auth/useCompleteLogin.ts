// What every successful login does (spec §4): store the token, fetch and store the user, then go
// to the remembered page or /home.
import { useCallback } from 'react';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch, useStore } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { authApi } from '../../entities/session/authApi.ts';
import { loggedIn, redirectConsumed, userInfoReceived, type UserState } from '../../entities/session/userSlice.ts';

export function useCompleteLogin() {
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  const store = useStore<{ user: UserState }>();
  const navigate = useNavigate();
  return useCallback(async (token: string) => {
    dispatch(loggedIn({ token }));
    const request = dispatch(authApi.endpoints.getMyUserInfo.initiate(undefined, { forceRefetch: true }));
    const result = await request;
    request.unsubscribe();
    if (result.data) dispatch(userInfoReceived(result.data));
    const target = store.getState().user.redirectTo || '/home';
    dispatch(redirectConsumed());
    navigate(target, { replace: true });
  }, [dispatch, navigate, store]);
}
