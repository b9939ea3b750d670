// /api/prod/appLoanSet/list and /api/prod/appLoanOrder/* (issue 22): the loan offers (public, with
// the caller's available credit when logged in), the caller's loans, the agreement to sign and its
// signed PDF, applying, repaying and adding collateral. Every answer is scoped to the session's
// user. The LTV monitor of the pledge loans starts here, fed by this instance's market updates,
// and stops when the app closes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import {
  AddCollateralBody, AgreementQuery, CreditApplyBody, MyLoansQuery, PledgeApplyBody, RepayBody, loanPaths, type LoanType,
} from '../../src/api/contract/loans.ts';
import { RecordId } from '../../src/api/contract/withdrawals.ts';
import { resolveSession } from '../domain/kernel/sessions.ts';
import type { MarketView } from '../domain/core/market/view.ts';
import { parsePrice, symbolByCode } from '../domain/core/market/symbols.ts';
import {
  addCollateral, agreementFor, applyLoan, creditLimit, loanInfo, loanToWire, myLoans, ownLoan, repayLoan, type PriceOf,
} from '../domain/programs/loans/loans.ts';
import { assetScales, listLoanSettings, settingToWire } from '../domain/programs/loans/settings.ts';
import { LtvMonitor, refreshLoanMonitors } from '../domain/programs/loans/ltvMonitor.ts';
import { signedAgreementPdf } from '../domain/programs/loans/signedPdf.ts';
import { requireSession } from '../plugins/auth.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

const IdQuery = Type.Object({ id: RecordId }, { additionalProperties: false });

/** The monitor each app started (tests wait on it). */
export const loanMonitors = new WeakMap<Services, { monitor: LtvMonitor; ready: Promise<void> }>();

/** Feed prices from the market view (the tickers this instance holds). */
export function viewPrices(market: MarketView): PriceOf {
  return (symbol) => {
    const spec = symbolByCode.get(symbol);
    const last = market.lastPrice(symbol);
    if (!spec || !last) return undefined;
    return { symbol, priceUnits: parsePrice(last.price, spec.pricePrecision), pricePrecision: spec.pricePrecision, timeMs: last.time, source: last.source };
  };
}

export function loanRoutes(app: FastifyInstance, services: Services, market: MarketView) {
  const { db, clock } = services;
  const priceOf = viewPrices(market);
  const monitor = new LtvMonitor({ services, onError: (error) => app.log.error({ err: error }, 'loan LTV monitor failed') });
  const ready = monitor.start().catch((error: unknown) => app.log.error({ err: error }, 'loan LTV monitor did not start'));
  const stopListening = market.onUpdate((update) => monitor.onUpdate(update));
  loanMonitors.set(services, { monitor, ready });
  app.addHook('onClose', async () => {
    stopListening();
    monitor.close();
    await monitor.drained();
  });

  /** The caller when a valid token came, else undefined (public calls). */
  const optionalUser = async (request: FastifyRequest) => {
    const header = request.headers['x-access-token'];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) return undefined;
    return (await resolveSession(db, clock, services.limits, token, request.ip))?.userId;
  };

  app.get(loanPaths.settings, async (request) => {
    const userId = await optionalUser(request);
    const scales = await assetScales(db);
    // Closed offers are listed too (enabled false): the app shows them greyed rather than losing them.
    const rows = await listLoanSettings(db);
    const available = userId === undefined ? undefined : (await creditLimit(db, userId, scales.get('USDT') ?? 6)).available;
    return ok(rows.map((row) => settingToWire(row, scales.get(row.asset) ?? 6, row.type === 'credit' ? available : undefined)));
  });

  app.get(loanPaths.myInfo, async (request) => {
    const session = await requireSession(services, request);
    return ok(await loanInfo(db, session.userId));
  });

  app.get<{ Querystring: Static<typeof MyLoansQuery> }>(loanPaths.myLoans, { schema: { querystring: MyLoansQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await myLoans(db, session.userId, request.query, clock.now(), priceOf));
  });

  app.get<{ Querystring: Static<typeof IdQuery> }>(loanPaths.detail, { schema: { querystring: IdQuery } }, async (request) => {
    const session = await requireSession(services, request);
    const row = await ownLoan(db, session.userId, BigInt(request.query.id));
    return ok(loanToWire(row, await assetScales(db), clock.now(), priceOf));
  });

  app.get<{ Querystring: Static<typeof AgreementQuery> }>(loanPaths.agreement, { schema: { querystring: AgreementQuery } }, async (request) => {
    const session = await requireSession(services, request);
    return ok(await agreementFor(db, session.userId, request.query));
  });

  app.get<{ Querystring: Static<typeof IdQuery> }>(loanPaths.agreementPdf, { schema: { querystring: IdQuery } }, async (request, reply) => {
    const session = await requireSession(services, request);
    const row = await ownLoan(db, session.userId, BigInt(request.query.id));
    const pdf = await signedAgreementPdf(services, row);
    return reply.header('content-type', 'application/pdf').header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="loan-agreement-${row.id}.pdf"`).send(Buffer.from(pdf));
  });

  const apply = (type: LoanType) => async (request: FastifyRequest<{ Body: Static<typeof CreditApplyBody> | Static<typeof PledgeApplyBody> }>) => {
    const session = await requireSession(services, request);
    const { row } = await applyLoan(services, session.userId, type, request.body, priceOf);
    return ok(loanToWire(row, await assetScales(db), clock.now(), priceOf));
  };
  app.post(loanPaths.creditApply, { schema: { body: CreditApplyBody } }, apply('credit'));
  app.post(loanPaths.pledgeApply, { schema: { body: PledgeApplyBody } }, apply('pledge'));

  app.post<{ Body: Static<typeof RepayBody> }>(loanPaths.repay, { schema: { body: RepayBody } }, async (request) => {
    const session = await requireSession(services, request);
    const row = await repayLoan(services, session.userId, BigInt(request.body.id), request.body.amount, priceOf);
    await refreshLoanMonitors([row.id]);
    return ok(loanToWire(row, await assetScales(db), clock.now(), priceOf));
  });

  app.post<{ Body: Static<typeof AddCollateralBody> }>(loanPaths.addCollateral, { schema: { body: AddCollateralBody } }, async (request) => {
    const session = await requireSession(services, request);
    const row = await addCollateral(services, session.userId, BigInt(request.body.id), request.body.amount, priceOf);
    await refreshLoanMonitors([row.id]);
    return ok(loanToWire(row, await assetScales(db), clock.now(), priceOf));
  });
}
