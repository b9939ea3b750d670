// Web Push and price alert calls (issue 21, contract/push.ts), injected into the one api. Quiet:
// the pages show a refusal in place.
import { api } from '../../api/api.ts';
import { paths } from '../../api/contract/paths.ts';
import type { Ticker } from '../../api/contract/market.ts';
import type { PushCategory } from '../../api/contract/content.ts';
import { pushPaths, type CreateAlertBody, type PriceAlert, type SubscribeBody } from '../../api/contract/push.ts';
import { currentSubscription } from './webPush.ts';

export interface PushState { subscribed: boolean; categories: PushCategory[] }

export const pushApi = api.injectEndpoints({
  endpoints: (build) => ({
    pushKey: build.query<{ publicKey: string }, void>({
      query: () => ({ url: pushPaths.publicKey, quiet: true }),
    }),
    pushState: build.mutation<PushState, { endpoint: string }>({
      query: (body) => ({ url: pushPaths.state, method: 'POST', body, quiet: true }),
    }),
    pushSubscribe: build.mutation<PushState, SubscribeBody>({
      query: (body) => ({ url: pushPaths.subscribe, method: 'POST', body, quiet: true }),
    }),
    pushUnsubscribe: build.mutation<PushState, { endpoint: string }>({
      query: (body) => ({ url: pushPaths.unsubscribe, method: 'POST', body, quiet: true }),
    }),
    priceAlerts: build.query<PriceAlert[], void>({
      query: () => ({ url: pushPaths.alerts, quiet: true }),
    }),
    createPriceAlert: build.mutation<PriceAlert, CreateAlertBody>({
      query: (body) => ({ url: pushPaths.createAlert, method: 'POST', body, quiet: true }),
    }),
    deletePriceAlert: build.mutation<null, { id: string }>({
      query: (body) => ({ url: pushPaths.deleteAlert, method: 'POST', body, quiet: true }),
    }),
    /** The symbols an alert may watch, with their last prices (the market's ticker list). */
    alertSymbols: build.query<Ticker[], void>({
      query: () => ({ url: paths.tickerList, quiet: true }),
    }),
  }),
});

export const {
  usePushKeyQuery, usePushStateMutation, usePushSubscribeMutation, usePushUnsubscribeMutation, usePriceAlertsQuery,
  useCreatePriceAlertMutation, useDeletePriceAlertMutation, useAlertSymbolsQuery,
} = pushApi;

/**
 * Before logging out: this browser's subscription leaves the account and the browser, so whoever
 * signs in on this device next does not get this account's notifications. Never stands in the way
 * of the logout (a failure here is only reported).
 */
export async function forgetThisBrowsersPush(unsubscribe: (body: { endpoint: string }) => Promise<unknown>) {
  try {
    const subscription = await currentSubscription();
    if (!subscription) return;
    await unsubscribe({ endpoint: subscription.endpoint }).catch((error: unknown) => console.warn('[push] unsubscribe on logout failed', error));
    await subscription.unsubscribe();
  } catch (error) {
    console.warn('[push] subscription not removed on logout', error);
  }
}
