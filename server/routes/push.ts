// Web Push and price alerts (issue 21, contract/push.ts): the VAPID public key for the browser's
// subscribe call, the caller's own subscriptions (subscribe, unsubscribe, state) and price alerts
// (list, create, delete). Every user call needs a session and touches only the caller's rows.
import type { FastifyInstance } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  CreateAlertBody, DeleteAlertBody, SubscribeBody, UnsubscribeBody, pushPaths,
} from '../../src/api/contract/push.ts';
import { requireSession } from '../plugins/auth.ts';
import { AppError } from '../lib/errors.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';
import { subscribe, subscriptionState, unsubscribe } from '../domain/programs/push/subscriptions.ts';
import { createAlert, deleteAlert, listAlerts, type AlertIndex } from '../domain/programs/push/alerts.ts';

const hourMs = 3_600_000;
/** Far above honest use (a browser subscribes once, and again when it changes its categories). */
const subscriptionChangesPerUserPerHour = 60;
const alertChangesPerUserPerHour = 200;

export function pushRoutes(app: FastifyInstance, services: Services, alertIndex: AlertIndex | undefined) {
  const push = () => {
    if (!services.push) throw new AppError(503, 'internal_error', 'Push notifications are not available on this server.');
    return services.push;
  };

  app.get(pushPaths.publicKey, async () => ok({ publicKey: push().publicKey }));

  app.post<{ Body: SubscribeBody }>(pushPaths.subscribe, { schema: { body: SubscribeBody } }, async (request) => {
    const session = await requireSession(services, request);
    await services.limiter.hit(`push-subscribe:${session.userId}`, subscriptionChangesPerUserPerHour, hourMs);
    return ok(await subscribe(services.db, session.userId, request.body, { allowPrivate: push().settings.allowPrivate }, services.clock.now()));
  });

  app.post<{ Body: Static<typeof UnsubscribeBody> }>(pushPaths.unsubscribe, { schema: { body: UnsubscribeBody } }, async (request) => {
    const session = await requireSession(services, request);
    await services.limiter.hit(`push-subscribe:${session.userId}`, subscriptionChangesPerUserPerHour, hourMs);
    return ok(await unsubscribe(services.db, session.userId, request.body.endpoint));
  });

  app.post<{ Body: Static<typeof UnsubscribeBody> }>(pushPaths.state, { schema: { body: UnsubscribeBody } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await subscriptionState(services.db, session.userId, request.body.endpoint));
  });

  app.get(pushPaths.alerts, async (request) => {
    const session = await requireSession(services, request);
    return ok(await listAlerts(services.db, session.userId));
  });

  app.post<{ Body: CreateAlertBody }>(pushPaths.createAlert, { schema: { body: CreateAlertBody } }, async (request) => {
    const session = await requireSession(services, request);
    await services.limiter.hit(`price-alert:${session.userId}`, alertChangesPerUserPerHour, hourMs);
    return ok(await createAlert(services.db, session.userId, request.body, services.clock.now(), alertIndex));
  });

  app.post<{ Body: Static<typeof DeleteAlertBody> }>(pushPaths.deleteAlert, { schema: { body: DeleteAlertBody } }, async (request) => {
    const session = await requireSession(services, request);
    await services.limiter.hit(`price-alert:${session.userId}`, alertChangesPerUserPerHour, hourMs);
    return ok(await deleteAlert(services.db, session.userId, BigInt(request.body.id), alertIndex));
  });
}
