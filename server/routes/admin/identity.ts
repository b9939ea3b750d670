// Back office of identity (issue 11): the KYC review queue and its photos (every view audited),
// and the verification levels' limits. (User search with each user's security state is in
// users.ts.) Admin and finance operators review; only admins change what a level unlocks.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { Empty } from '../../../src/api/contract/common.ts';
import { AdminKycListQuery, KycLevelBody, KycRejectBody, kycAdminPaths } from '../../../src/api/contract/identity.ts';
import { RecordId } from '../../../src/api/contract/withdrawals.ts';
import {
  applicationDetail, applicationPhoto, approveApplication, listApplications, rejectApplication, type KycDecision,
} from '../../domain/core/identity/kyc.ts';
import { listKycLevels, parseLevel, setKycLevel } from '../../domain/core/identity/kycLevels.ts';
import { deliverMessages, type WrittenMessage } from '../../domain/kernel/messages.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';

const reviewers = ['admin', 'finance'] as const;
const IdParams = Type.Object({ id: RecordId });
const PhotoParams = Type.Object({ id: RecordId, side: Type.Union([Type.Literal('front'), Type.Literal('back')]) });
const LevelParams = Type.Object({ level: Type.String({ minLength: 1, maxLength: 2 }) });

export function identityAdminRoutes(api: FastifyInstance, services: Services) {
  const decision = (request: FastifyRequest): KycDecision => ({ operatorId: request.operator!.id, clock: services.clock });

  api.get<{ Querystring: Static<typeof AdminKycListQuery> }>(kycAdminPaths.list,
    { schema: { querystring: AdminKycListQuery }, preHandler: operatorOnly(reviewers) },
    async (request) => ok(await listApplications(services.db, request.query)));

  api.get<{ Params: Static<typeof IdParams> }>(kycAdminPaths.detail,
    { schema: { params: IdParams }, preHandler: operatorOnly(reviewers) },
    async (request) => ok(await applicationDetail(services.db, BigInt(request.params.id))));

  api.post<{ Params: Static<typeof IdParams> }>(kycAdminPaths.approve,
    { schema: { params: IdParams, body: Empty }, preHandler: operatorOnly(reviewers) },
    async (request) => {
      const messages: WrittenMessage[] = [];
      const answer = await approveApplication(services.db, BigInt(request.params.id), { ...decision(request), messages });
      deliverMessages(services, messages);
      return ok(answer);
    });

  api.post<{ Params: Static<typeof IdParams>; Body: Static<typeof KycRejectBody> }>(kycAdminPaths.reject,
    { schema: { params: IdParams, body: KycRejectBody }, preHandler: operatorOnly(reviewers) },
    async (request) => {
      const messages: WrittenMessage[] = [];
      const answer = await rejectApplication(services.db, BigInt(request.params.id), request.body.reason, { ...decision(request), messages });
      deliverMessages(services, messages);
      return ok(answer);
    });

  api.get<{ Params: Static<typeof PhotoParams> }>(kycAdminPaths.photo,
    { schema: { params: PhotoParams }, preHandler: operatorOnly(reviewers) }, async (request, reply) => {
      const answer = await applicationPhoto(services.db, services.uploads, services.pepper, BigInt(request.params.id),
        request.params.side, decision(request));
      return reply.headers(answer.headers).send(answer.bytes);
    });

  api.get(kycAdminPaths.levels, { preHandler: operatorOnly(reviewers) }, async () => ok(await listKycLevels(services.db)));

  api.post<{ Params: Static<typeof LevelParams>; Body: Static<typeof KycLevelBody> }>(kycAdminPaths.level,
    { schema: { params: LevelParams, body: KycLevelBody }, preHandler: operatorOnly(['admin']) },
    async (request) => ok(await setKycLevel(services.db, services.clock, request.operator!.id, parseLevel(request.params.level), request.body)));
}
