// /api/sys/common/*: uploads (multipart, unencrypted as the spec has it) and reading them back.
// Multipart parsing is registered in this scope only, so no other route accepts a multipart body.
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { Type, type Static } from '@sinclair/typebox';
import { uploadPurposes, walletPaths, type UploadPurpose } from '../../src/api/contract/wallet.ts';
import { fileMissing, fileTooLarge, ownUpload, saveUpload, uploadAnswer, uploadBytesMax } from '../domain/kernel/uploads.ts';
import { requireSession } from '../plugins/auth.ts';
import { badRequest } from '../lib/errors.ts';
import { ok } from '../lib/envelope.ts';
import type { Services } from '../domain/kernel/services.ts';

/** Uploads one user may make per hour (each is decoded and re-encoded, which costs CPU). */
const uploadsPerUserPerHour = 60;
const FileParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export async function sysRoutes(app: FastifyInstance, services: Services) {
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: uploadBytesMax, files: 1, fields: 4, fieldSize: 256, parts: 5, headerPairs: 50 },
    });

    scope.post(walletPaths.upload, async (request) => {
      const session = await requireSession(services, request);
      if (!request.isMultipart()) throw badRequest('file_missing', 'Please send the file as multipart/form-data.');
      await services.limiter.hit(`upload:${session.userId}`, uploadsPerUserPerHour, 3_600_000);
      let file: Buffer | undefined;
      let purpose: string | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || file !== undefined) {
              part.file.resume();
              continue;
            }
            file = await part.toBuffer();
          } else if (part.fieldname === 'purpose') {
            purpose = String(part.value);
          }
        }
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge();
        throw badRequest('invalid_request', 'The upload could not be read.');
      }
      if (!purpose || !(uploadPurposes as readonly string[]).includes(purpose)) {
        throw badRequest('invalid_request', `The purpose must be one of: ${uploadPurposes.join(', ')}.`);
      }
      if (!file) throw fileMissing();
      return ok(await saveUpload(services.db, services.uploads, session.userId, purpose as UploadPurpose, file, services.clock.now(), services.pepper));
    });
  });

  app.get<{ Params: Static<typeof FileParams> }>(walletPaths.uploadedFile, { schema: { params: FileParams } },
    async (request, reply) => {
      const session = await requireSession(services, request);
      const answer = await uploadAnswer(services.uploads, await ownUpload(services.db, session.userId, request.params.id), services.pepper);
      return reply.headers(answer.headers).send(answer.bytes);
    });
}
