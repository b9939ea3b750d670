// /api/admin/products/* and /api/admin/mining/* (issue 22): operators create and edit products,
// fund reserves (a second operator above the currency's threshold), freeze and unfreeze orders
// with a reason the user reads (each a message to the user, pushed after the commit), and publish
// the network's mining reward figure. Writes need the admin role, reads admin or finance; every
// write is audited in its own transaction. (Running a scheduled job now and the job runs are
// routes/admin/jobs.ts.)
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  CreateProductBody, OrderStatus, ProductStatus, ProductType, PublishMiningRewardBody, ReasonBody, ReserveBody, UpdateProductBody, productAdminPaths,
} from '../../../src/api/contract/products.ts';
import { CurrencyCode, PageQuery } from '../../../src/api/contract/wallet.ts';
import { RecordId } from '../../../src/api/contract/withdrawals.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import { deliverMessages } from '../../domain/kernel/messages.ts';
import { createProduct, listRewards, publishReward } from '../../domain/programs/products/admin.ts';
import { adminOrder, listAdminOrders, setFrozen } from '../../domain/programs/products/orders.ts';
import { adminProductWire, listAdminProducts, lockProduct } from '../../domain/programs/products/products.ts';
import { assetScales } from '../../domain/kernel/ledger/assets.ts';
import { changeSetting, type SettingChangeOutcome } from '../../domain/kernel/settingChanges.ts';
import type { Tx } from '../../db/client.ts';
import { productSpec } from './houseSettings.ts';
import { approveFunding, listFundings, rejectFunding, requestFunding } from '../../domain/programs/products/reserve.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const writers = ['admin'] as const;
const readers = ['admin', 'finance'] as const;

const IdParams = Type.Object({ id: RecordId });
const FundingParams = Type.Object({ fundingId: RecordId });
const ProductsQuery = Type.Object({ type: Type.Optional(ProductType), status: Type.Optional(ProductStatus), ...PageQuery }, { additionalProperties: false });
const OrdersQuery = Type.Object({
  productId: Type.Optional(RecordId), status: Type.Optional(OrderStatus), userId: Type.Optional(RecordId), ...PageQuery,
}, { additionalProperties: false });
const FundingsQuery = Type.Object({ all: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
const RewardsQuery = Type.Object({ asset: Type.Optional(CurrencyCode) }, { additionalProperties: false });
const EmptyBody = Type.Object({}, { additionalProperties: false });

export function productAdminRoutes(app: FastifyInstance, services: Services) {
  const { db, clock } = services;

  app.get<{ Querystring: Static<typeof ProductsQuery> }>(productAdminPaths.products,
    { schema: { querystring: ProductsQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listAdminProducts(db, request.query, clock.now())));

  // A new product starts as a draft; putting it on sale is a change a second admin approves.
  app.post<{ Body: Static<typeof CreateProductBody> }>(productAdminPaths.products,
    { schema: { body: CreateProductBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const row = await createProduct(tx, request.operator!.id, { ...request.body, status: 'draft' }, now);
        const product = await adminProductWire(tx, row, await assetScales(tx), now);
        await recordAudit(tx, { operatorId: request.operator!.id, action: 'product.create', targetType: 'product', targetId: row.id, after: product }, clock);
        if (request.body.status === 'draft') return product;
        return productAnswer(tx, row.id, await changeSetting(tx, productSpec(row.id.toString(), { status: 'open' }), request.operator!.id, clock), now);
      }));
    });

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof UpdateProductBody> }>(productAdminPaths.product,
    { schema: { params: IdParams, body: UpdateProductBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) =>
        productAnswer(tx, BigInt(request.params.id), await changeSetting(tx, productSpec(request.params.id, request.body), request.operator!.id, clock), now)));
    });

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof ReserveBody> }>(productAdminPaths.reserve,
    { schema: { params: IdParams, body: ReserveBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const funding = await requestFunding(tx, BigInt(request.params.id), request.operator!.id, request.body.amount, now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'product.reserve', targetType: 'product_reserve_funding', targetId: funding.id, after: funding,
        }, clock);
        return funding;
      }));
    });

  app.get<{ Querystring: Static<typeof FundingsQuery> }>(productAdminPaths.fundings,
    { schema: { querystring: FundingsQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listFundings(db, request.query.all === true)));

  app.post<{ Params: Static<typeof FundingParams>; Body: Static<typeof EmptyBody> }>(productAdminPaths.approveFunding,
    { schema: { params: FundingParams, body: EmptyBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const { before, after } = await approveFunding(tx, BigInt(request.params.fundingId), request.operator!.id, now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'product.reserve.approve', targetType: 'product_reserve_funding', targetId: after.id, before, after,
        }, clock);
        return after;
      }));
    });

  app.post<{ Params: Static<typeof FundingParams>; Body: Static<typeof ReasonBody> }>(productAdminPaths.rejectFunding,
    { schema: { params: FundingParams, body: ReasonBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const { before, after } = await rejectFunding(tx, BigInt(request.params.fundingId), now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'product.reserve.reject', targetType: 'product_reserve_funding', targetId: after.id,
          before, after, reason: request.body.reason.trim(),
        }, clock);
        return after;
      }));
    });

  app.get<{ Querystring: Static<typeof OrdersQuery> }>(productAdminPaths.orders,
    { schema: { querystring: OrdersQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listAdminOrders(db, request.query, clock.now())));

  const freezeRoute = (path: string, freeze: boolean) => app.post<{ Params: Static<typeof IdParams>; Body: { reason?: string } }>(path,
    { schema: { params: IdParams, body: freeze ? ReasonBody : EmptyBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      const reason = freeze ? request.body.reason!.trim() : undefined;
      const message = await db.transaction(async (tx) => {
        const { before, after, message } = await setFrozen(tx, BigInt(request.params.id), reason, now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: freeze ? 'product.order.freeze' : 'product.order.unfreeze', targetType: 'product_order',
          targetId: after.id, userId: after.userId, before: { status: before.status, frozenReason: before.frozenReason },
          after: { status: after.status, frozenReason: after.frozenReason }, reason: reason ?? null,
        }, clock);
        return message;
      });
      // The user's message (product_frozen with the reason, or product_unfrozen), told after the commit.
      deliverMessages(services, message ? [message] : []);
      return ok(await adminOrder(db, BigInt(request.params.id), now));
    });
  freezeRoute(productAdminPaths.freeze, true);
  freezeRoute(productAdminPaths.unfreeze, false);

  app.get<{ Querystring: Static<typeof RewardsQuery> }>(productAdminPaths.miningRewards,
    { schema: { querystring: RewardsQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listRewards(db, request.query.asset)));

  app.post<{ Body: Static<typeof PublishMiningRewardBody> }>(productAdminPaths.miningRewards,
    { schema: { body: PublishMiningRewardBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = clock.now();
      return ok(await db.transaction(async (tx) => {
        const { before, after } = await publishReward(tx, request.operator!.id, request.body, now);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'mining.reward', targetType: 'mining_reward', targetId: after.id, before, after,
        }, clock);
        return after;
      }));
    });
}

/** A product as it is now, with the change that waits for a second admin, if one does. */
async function productAnswer(tx: Tx, id: bigint, outcome: SettingChangeOutcome, now: Date) {
  if (outcome.applied) return outcome.after;
  const row = await lockProduct(tx, id);
  return { ...(await adminProductWire(tx, row!, await assetScales(tx), now)), pendingChange: outcome.change };
}
