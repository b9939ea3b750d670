// /api/prod/appProductInfo/* and /api/prod/appProductOrder/* (issue 22): the public product list
// and detail (names in the caller's language: `lang` of the query, a `lang` header or
// Accept-Language, falling back to the English name), the mining pool totals, and the caller's
// purchases (debitBuy, minerBuy), early redemption, orders, statistics and daily receipts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  DebitBuyBody, MinerBuyBody, MyOrdersQuery, ProductIdQuery, ProductListQuery, ProductType, RedeemBody, productPaths,
} from '../../src/api/contract/products.ts';
import { CurrencyCode, PageQuery } from '../../src/api/contract/wallet.ts';
import { RecordId } from '../../src/api/contract/withdrawals.ts';
import { listProducts, productById } from '../domain/programs/products/products.ts';
import { requestLang } from '../domain/kernel/shared/names.ts';
import {
  debitBuy, listMyOrders, minerBuy, miningPool, myOrder, orderReceipts, orderStat, redeemOrder,
} from '../domain/programs/products/orders.ts';
import { resolveSession } from '../domain/kernel/sessions.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

/** Purchases and redemptions one user may send per minute: far above a person tapping. */
const buysPerUserPerMinute = 60;

const Lang = { lang: Type.Optional(Type.String({ minLength: 1, maxLength: 16 })) };
const ListQuery = Type.Object({ ...ProductListQuery.properties, ...Lang }, { additionalProperties: false });
const DetailQuery = Type.Object({ ...ProductIdQuery.properties, ...Lang }, { additionalProperties: false });
const MyQuery = Type.Object({ ...MyOrdersQuery.properties, ...Lang }, { additionalProperties: false });
const StatQuery = Type.Object({ type: Type.Optional(ProductType) }, { additionalProperties: false });
const ReceiptsQuery = Type.Object({ id: RecordId, ...PageQuery }, { additionalProperties: false });
const PoolQuery = Type.Object({ asset: Type.Optional(CurrencyCode) }, { additionalProperties: false });

export function productRoutes(app: FastifyInstance, services: Services) {
  const now = () => services.clock.now();
  const langOf = (request: FastifyRequest) => requestLang(request.query as { lang?: string }, request.headers);
  /** The caller's user id when it sent a live session token (public calls). */
  const optionalUser = async (request: FastifyRequest): Promise<bigint | undefined> => {
    const header = request.headers['x-access-token'];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) return undefined;
    return (await resolveSession(services.db, services.clock, services.limits, token, request.ip))?.userId;
  };
  const limitBuys = (userId: bigint) => services.limiter.hit(`product-buy:${userId}`, buysPerUserPerMinute, 60_000);

  app.get<{ Querystring: Static<typeof ListQuery> }>(productPaths.list, { schema: { querystring: ListQuery } },
    async (request) => ok(await listProducts(services.db, request.query, langOf(request), now())));

  app.get<{ Querystring: Static<typeof DetailQuery> }>(productPaths.detail, { schema: { querystring: DetailQuery } },
    async (request) => ok(await productById(services.db, BigInt(request.query.id), langOf(request), now())));

  app.get<{ Querystring: Static<typeof PoolQuery> }>(productPaths.miningPool, { schema: { querystring: PoolQuery } },
    async (request) => ok(await miningPool(services.db, request.query.asset, await optionalUser(request), now())));

  app.post<{ Body: Static<typeof DebitBuyBody> }>(productPaths.debitBuy, { schema: { body: DebitBuyBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limitBuys(session.userId);
    const order = await debitBuy(services.db, session.userId, request.body, now());
    return ok(await myOrder(services.db, session.userId, order.id, langOf(request), now()));
  });

  app.post<{ Body: Static<typeof MinerBuyBody> }>(productPaths.minerBuy, { schema: { body: MinerBuyBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limitBuys(session.userId);
    const order = await minerBuy(services.db, session.userId, request.body, now());
    return ok(await myOrder(services.db, session.userId, order.id, langOf(request), now()));
  });

  app.post<{ Body: Static<typeof RedeemBody> }>(productPaths.redeem, { schema: { body: RedeemBody } }, async (request) => {
    const session = await requireSession(services, request);
    await limitBuys(session.userId);
    const order = await redeemOrder(services.db, session.userId, BigInt(request.body.id), now());
    return ok(await myOrder(services.db, session.userId, order.id, langOf(request), now()));
  });

  app.get<{ Querystring: Static<typeof MyQuery> }>(productPaths.myOrders, { schema: { querystring: MyQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await listMyOrders(services.db, session.userId, request.query, langOf(request), now()));
  });

  app.get<{ Querystring: Static<typeof StatQuery> }>(productPaths.orderStat, { schema: { querystring: StatQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await orderStat(services.db, session.userId, request.query.type, now()));
  });

  app.get<{ Querystring: Static<typeof ReceiptsQuery> }>(productPaths.receipts, { schema: { querystring: ReceiptsQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await orderReceipts(services.db, session.userId, BigInt(request.query.id), request.query));
  });
}
