// /api/admin/content/* and /api/admin/status/maintenance (issue 21): operators write notices,
// announcements, help articles and news per language, schedule and withdraw them, see who read
// them, upload their images, and set maintenance mode. Writing needs the admin role; finance
// operators may read. Every write is audited in its own transaction. A notice or announcement that
// is published now with push asked for (the short notice form always) is pushed to the
// subscribers of the notices category after commit; one published later with push is marked and
// pushed when it becomes visible (domain/programs/content/content.ts pushScheduled, run by the instance).
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { Type, type Static } from '@sinclair/typebox';
import {
  AdminContentListQuery, AdminItemBody, AdminItemUpdateBody, AdminMaintenanceBody, AdminNoticeBody, AdminTranslation, AdminWithdrawBody,
  ContentItemParams, ContentReadersQuery, contentAdminPaths, type AdminContentItem,
} from '../../../src/api/contract/content.ts';
import { recordAudit } from '../../domain/kernel/audit.ts';
import {
  adminItem, createItem, createNotice, listAdminItems, listReaders, pushItem, updateItem, withdrawItem,
} from '../../domain/programs/content/content.ts';
import { saveContentImage } from '../../domain/programs/content/images.ts';
import { readMaintenance, writeMaintenance } from '../../domain/programs/content/status.ts';
import { fileMissing, fileTooLarge, uploadBytesMax } from '../../domain/kernel/uploads.ts';
import { operatorOnly } from '../../plugins/operatorAuth.ts';
import { badRequest } from '../../lib/errors.ts';
import { ok } from '../../lib/envelope.ts';
import type { Services } from '../../domain/kernel/services.ts';
import type { Tx } from '../../db/client.ts';

const writers = ['admin'] as const;
const readers = ['admin', 'finance'] as const;
/** Images one operator may upload per hour (each is decoded and re-encoded). */
const imagesPerOperatorPerHour = 120;

type Id = Static<typeof ContentItemParams>;

// The contract's bodies with `lang` as any short text: the domain checks it and refuses an
// unknown language with a message naming the ones there are (a schema union would only say
// "Expected union value").
const LangText = Type.String({ minLength: 1, maxLength: 16 });
const NoticeBodySchema = Type.Object({ ...AdminNoticeBody.properties, lang: Type.Optional(LangText) }, { additionalProperties: false });
const TranslationSchema = Type.Object({ ...AdminTranslation.properties, lang: LangText }, { additionalProperties: false });
const translations = Type.Array(TranslationSchema, { minItems: 1, maxItems: 10 });
const ItemBodySchema = Type.Object({ ...AdminItemBody.properties, translations }, { additionalProperties: false });
const ItemUpdateSchema = Type.Object({ ...AdminItemUpdateBody.properties, translations }, { additionalProperties: false });

export function contentAdminRoutes(app: FastifyInstance, services: Services) {
  /** Pushes a notice or announcement that is visible now to its audience's subscribers (after commit). */
  const pushIfLive = async (item: AdminContentItem) => {
    if (!services.push) return;
    const onError = (error: unknown) => app.log.error({ err: error }, 'content push failed');
    await pushItem(services.db, services.push, item, onError).catch(onError);
  };

  /** Writes an item and its 'content.create' audit row in one transaction. */
  const createAudited = (operatorId: bigint, write: (tx: Tx, now: Date) => Promise<AdminContentItem>) => {
    const now = services.clock.now();
    return services.db.transaction(async (tx) => {
      const created = await write(tx, now);
      await recordAudit(tx, {
        operatorId, action: 'content.create', targetType: 'content_item', targetId: created.id, after: created,
      }, services.clock);
      return created;
    });
  };

  app.post<{ Body: Static<typeof AdminNoticeBody> }>(contentAdminPaths.notices,
    { schema: { body: NoticeBodySchema }, preHandler: operatorOnly(writers) }, async (request) => {
      const item = await createAudited(request.operator!.id, (tx, now) => createNotice(tx, now, request.operator!.id, request.body));
      await pushIfLive(item);
      return ok(item);
    });

  app.get<{ Querystring: Static<typeof AdminContentListQuery> }>(contentAdminPaths.items,
    { schema: { querystring: AdminContentListQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listAdminItems(services.db, services.clock.now(), request.query)));

  app.post<{ Body: Static<typeof AdminItemBody> }>(contentAdminPaths.items,
    { schema: { body: ItemBodySchema }, preHandler: operatorOnly(writers) }, async (request) => {
      const item = await createAudited(request.operator!.id, (tx, now) => createItem(tx, now, request.operator!.id, request.body));
      if (request.body.push) await pushIfLive(item);
      return ok(item);
    });

  app.get<{ Params: Id }>(contentAdminPaths.item, { schema: { params: ContentItemParams }, preHandler: operatorOnly(readers) },
    async (request) => ok(await adminItem(services.db, services.clock.now(), BigInt(request.params.id))));

  app.post<{ Params: Id; Body: Static<typeof AdminItemUpdateBody> }>(contentAdminPaths.item,
    { schema: { params: ContentItemParams, body: ItemUpdateSchema }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = services.clock.now();
      const { before, item } = await services.db.transaction(async (tx) => {
        const written = await updateItem(tx, now, BigInt(request.params.id), request.body);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'content.update', targetType: 'content_item', targetId: written.item.id,
          before: written.before, after: written.item, reason: request.body.reason ?? null,
        }, services.clock);
        return written;
      });
      // Pushed when this update makes it visible (it was scheduled or expired before).
      if (request.body.push && before.status !== 'live') await pushIfLive(item);
      return ok(item);
    });

  app.post<{ Params: Id; Body: Static<typeof AdminWithdrawBody> }>(contentAdminPaths.withdraw,
    { schema: { params: ContentItemParams, body: AdminWithdrawBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const now = services.clock.now();
      return ok(await services.db.transaction(async (tx) => {
        const { before, item } = await withdrawItem(tx, now, BigInt(request.params.id));
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'content.withdraw', targetType: 'content_item', targetId: item.id,
          before: { status: before.status }, after: { status: item.status, withdrawnAt: item.withdrawnAt }, reason: request.body.reason.trim(),
        }, services.clock);
        return item;
      }));
    });

  app.get<{ Params: Id; Querystring: Static<typeof ContentReadersQuery> }>(contentAdminPaths.readers,
    { schema: { params: ContentItemParams, querystring: ContentReadersQuery }, preHandler: operatorOnly(readers) },
    async (request) => ok(await listReaders(services.db, BigInt(request.params.id), request.query)));

  app.get(contentAdminPaths.maintenance, { preHandler: operatorOnly(readers) }, async () => ok(await readMaintenance(services.db)));

  app.post<{ Body: Static<typeof AdminMaintenanceBody> }>(contentAdminPaths.maintenance,
    { schema: { body: AdminMaintenanceBody }, preHandler: operatorOnly(writers) }, async (request) => {
      const { reason, ...next } = request.body;
      return ok(await services.db.transaction(async (tx) => {
        const { before, after } = await writeMaintenance(tx, services.clock.now(), next);
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'status.maintenance', targetType: 'system_setting', targetId: 'maintenance',
          before, after, reason: reason.trim(),
        }, services.clock);
        return after;
      }));
    });

  // Multipart is parsed in this scope only: no other admin route takes a multipart body.
  void app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: uploadBytesMax, files: 1, fields: 2, fieldSize: 256, parts: 3, headerPairs: 50 },
    });
    scope.post(contentAdminPaths.images, { preHandler: operatorOnly(writers) }, async (request) => {
      if (!request.isMultipart()) throw badRequest('file_missing', 'Please send the image as multipart/form-data.');
      await services.limiter.hit(`content-image:${request.operator!.id}`, imagesPerOperatorPerHour, 3_600_000);
      let file: Buffer | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type !== 'file') continue;
          if (part.fieldname !== 'file' || file !== undefined) {
            part.file.resume();
            continue;
          }
          file = await part.toBuffer();
        }
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge();
        throw badRequest('invalid_request', 'The upload could not be read.');
      }
      if (!file) throw fileMissing();
      const bytes = file;
      return ok(await services.db.transaction(async (tx) => {
        const image = await saveContentImage(tx, services.uploads, request.operator!.id, bytes, services.clock.now());
        await recordAudit(tx, {
          operatorId: request.operator!.id, action: 'content.image', targetType: 'content_image', targetId: image.id,
          after: { contentType: image.contentType, size: image.size, width: image.width, height: image.height },
        }, services.clock);
        return image;
      }));
    });
  });
}
