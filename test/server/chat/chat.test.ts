// The support chat (issue 21) through the real protocol: a user's send is persisted once per client
// message id (a resend answers the stored message), numbered in order, fetched after a seq; a
// flood is refused; another user's upload and a document or oversized attachment are refused; an
// operator's reply reaches the user's socket, writes an internal message when the app is closed,
// and every operator action leaves an audit row. Both databases; no assertion on timing.
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { chatAdminPaths, chatMessagesPerMinute, chatPaths, operatorChatChannel } from '../../../src/api/contract/chat.ts';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import type { UserEvent } from '../../../src/api/contract/market.ts';
import type { ChatDelivery } from '../../../server/domain/kernel/chatEvents.ts';
import { auditLog, chatMessages, userMessages } from '../../../server/db/schema.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { socketClients, socketUrl } from '../realtimeHelpers.ts';
import { getRaw, pdfDocument, pngImage, upload, userIdOf } from '../wallet/walletHelpers.ts';

const path = (template: string, id: string) => template.replace(':id', id);
let counter = 0;
const clientId = () => `msg-${Date.now().toString(36)}-${(counter += 1)}`;

forEachDatabase((server: TestServer) => {
  let url: string;
  let operatorToken: string;
  let operatorId: string;
  const connect = socketClients(() => url);

  beforeAll(async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    url = socketUrl(server.app);
    const operator = await createOperator(server, 'finance');
    operatorToken = await operatorLogin(server, operator);
    const [row] = await server.query<{ id: string }>(sql`select id::text as id from operators where email = ${operator.email}`);
    operatorId = row.id;
  });

  const send = (token: string, body: Record<string, unknown>) => server.post(chatPaths.send, body, { token });
  const history = (token: string, query: Record<string, string> = {}) => server.get(chatPaths.history, query, { token });

  describe('a user sends', () => {
    it('stores a message once: a resend answers the stored message, and sequence numbers follow the order', async () => {
      const user = await server.registerByEmail();
      const first = clientId();
      const sent = expectOk(await send(user.token, { clientMessageId: first, text: '  Hello <b>support</b>  ' })).body.result;
      expect(sent).toMatchObject({ seq: 1, sender: 'user', clientMessageId: first, text: 'Hello <b>support</b>' });
      const again = expectOk(await send(user.token, { clientMessageId: first, text: 'something else' })).body.result;
      expect(again).toEqual(sent);
      const second = expectOk(await send(user.token, { clientMessageId: clientId(), text: 'second' })).body.result;
      const third = expectOk(await send(user.token, { clientMessageId: clientId(), text: 'third' })).body.result;
      expect([second.seq, third.seq]).toEqual([2, 3]);
      const rows = await server.db.select().from(chatMessages).where(eq(chatMessages.conversationId, BigInt(sent.conversationId)));
      expect(rows.map((row) => row.seq).sort()).toEqual([1, 2, 3]);

      const all = expectOk(await history(user.token)).body.result;
      expect(all).toMatchObject({ conversationId: sent.conversationId, status: 'open', lastSeq: 3, operatorReadSeq: 0 });
      expect(all.messages.map((message: { text: string }) => message.text)).toEqual(['Hello <b>support</b>', 'second', 'third']);
      const after = expectOk(await history(user.token, { afterSeq: '1' })).body.result;
      expect(after.messages.map((message: { seq: number }) => message.seq)).toEqual([2, 3]);
      const before = expectOk(await history(user.token, { beforeSeq: '3', limit: '1' })).body.result;
      expect(before.messages.map((message: { seq: number }) => message.seq)).toEqual([2]);
    });

    it('numbers messages sent at once without gaps, and parallel resends store one', async () => {
      const user = await server.registerByEmail();
      const ids = Array.from({ length: 6 }, clientId);
      const answers = await Promise.all([...ids, ids[0], ids[0]].map((id) => send(user.token, { clientMessageId: id, text: `m ${id}` })));
      answers.forEach((answer) => expectOk(answer));
      const all = expectOk(await history(user.token)).body.result;
      expect(all.messages.map((message: { seq: number }) => message.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(new Set(all.messages.map((message: { clientMessageId: string }) => message.clientMessageId))).toEqual(new Set(ids));
    });

    it('refuses an empty message, control characters and a flood, storing nothing', async () => {
      const user = await server.registerByEmail();
      expectRefused(await send(user.token, { clientMessageId: clientId(), text: '   ' }), 400, 'invalid_request');
      expectRefused(await send(user.token, { clientMessageId: clientId() }), 400, 'invalid_request');
      expectRefused(await send(user.token, { clientMessageId: clientId(), text: 'bell\u0007' }), 400, 'invalid_request');
      expectRefused(await send(user.token, { clientMessageId: 'short', text: 'x' }), 400, 'invalid_request');
      expect(expectOk(await history(user.token)).body.result).toMatchObject({ status: 'none', messages: [] });
      for (let index = 0; index < chatMessagesPerMinute; index += 1) {
        expectOk(await send(user.token, { clientMessageId: clientId(), text: `n${index}` }));
      }
      expectRefused(await send(user.token, { clientMessageId: clientId(), text: 'one too many' }), 429, 'rate_limited');
      expect(expectOk(await history(user.token)).body.result.lastSeq).toBe(chatMessagesPerMinute);
      expectRefused(await send('x'.repeat(43), { clientMessageId: clientId(), text: 'no session' }), 401, 'unauthorized');
    });

    it('sends a photo of its own, and refuses another user\'s upload, a document, a deposit proof and a 20 MB file', async () => {
      const alice = await server.registerByEmail();
      const bob = await server.registerByEmail();
      const photo = expectOk(await upload(server, alice.token, { bytes: await pngImage(), filename: 'a.png', contentType: 'image/png' }, 'chat')).body.result;
      const sent = expectOk(await send(alice.token, { clientMessageId: clientId(), fileId: photo.id })).body.result;
      expect(sent.imageUrl).toBe(walletPaths.uploadedFile.replace(':id', photo.id).replace(/^/, '/api'));
      expectRefused(await send(bob.token, { clientMessageId: clientId(), fileId: photo.id }), 404, 'file_not_found');
      expectRefused(await upload(server, bob.token, { bytes: pdfDocument(), filename: 'x.pdf', contentType: 'application/pdf' }, 'chat'),
        400, 'file_type_unsupported');
      const proof = expectOk(await upload(server, bob.token, { bytes: await pngImage() }, 'deposit_proof')).body.result;
      expectRefused(await send(bob.token, { clientMessageId: clientId(), fileId: proof.id }), 400, 'file_type_unsupported');
      const big = Buffer.alloc(20 * 1024 * 1024, 0x41);
      (await pngImage()).copy(big);
      expectRefused(await upload(server, bob.token, { bytes: big, filename: 'big.png', contentType: 'image/png' }, 'chat'), 413, 'file_too_large');
      expect(expectOk(await history(bob.token)).body.result.status).toBe('none');
    });
  });

  describe('operators answer', () => {
    const asOperator = { get token() { return operatorToken; } };

    it('lists the queue, replies onto the user\'s socket and marks both sides read, each action audited', async () => {
      const user = await server.registerByEmail();
      const userId = await userIdOf(server, user.email!);
      const sent = expectOk(await send(user.token, { clientMessageId: clientId(), text: 'Where is my deposit?' })).body.result;
      const conversationId = sent.conversationId as string;

      const queue = expectOk(await server.get(chatAdminPaths.conversations, { status: 'open' }, { token: asOperator.token })).body.result;
      const listed = queue.records.find((record: { id: string }) => record.id === conversationId);
      expect(listed).toMatchObject({ userId: String(userId), status: 'open', lastSeq: 1, lastText: 'Where is my deposit?' });
      expect(listed.userLabel).not.toContain(user.email!.split('@')[0]);

      const detail = expectOk(await server.get(path(chatAdminPaths.conversation, conversationId), {}, { token: asOperator.token })).body.result;
      expect(detail.messages).toHaveLength(1);
      expect(detail.context).toMatchObject({ userId: String(userId), kycLevel: 0 });
      expect(detail.context.account).toMatch(/\*\*\*@example\.com$/);

      const socket = await connect();
      socket.send({ op: 'auth', token: user.token });
      expect((await socket.next('subscribed')).channels).toEqual(['user']);
      const back = await connect();
      back.send({ op: 'auth', token: asOperator.token, as: 'operator' });
      expect((await back.next('subscribed')).channels).toEqual([operatorChatChannel]);

      const answered = expectOk(await server.post(path(chatAdminPaths.reply, conversationId), { text: 'Looking at it now.' },
        { token: asOperator.token })).body.result;
      expect(answered).toMatchObject({ seq: 2, sender: 'operator', text: 'Looking at it now.' });
      const delivered = await socket.nextOn('user');
      expect(delivered.data).toMatchObject({ kind: 'chat', chat: { type: 'chat.message', conversationId, message: { seq: 2, sender: 'operator' } } });
      const toOperators = await back.nextOn(operatorChatChannel);
      expect(toOperators.data).toMatchObject({ type: 'chat.message', conversationId, userId: String(userId), message: { seq: 2 } });
      // The app was open: no internal message.
      expect(await server.db.select().from(userMessages).where(eq(userMessages.userId, userId))).toHaveLength(0);

      // The user's next message reaches the operators' socket.
      expectOk(await send(user.token, { clientMessageId: clientId(), text: 'Thanks' }));
      expect((await back.nextOn(operatorChatChannel)).data).toMatchObject({ type: 'chat.message', message: { seq: 3, text: 'Thanks' } });

      expectOk(await server.post(path(chatAdminPaths.read, conversationId), { seq: 3 }, { token: asOperator.token }));
      // The user's own message came back on their socket too (their other devices show it).
      expect((await socket.nextOn('user')).data).toMatchObject({ chat: { type: 'chat.message', message: { seq: 3, sender: 'user' } } });
      expect((await socket.nextOn('user')).data).toMatchObject({ chat: { type: 'chat.read', seq: 3, by: 'operator' } });
      expect(expectOk(await history(user.token)).body.result.operatorReadSeq).toBe(3);

      // The user's read mark and typing reach the operators (typing is not stored).
      const chatOn = (data: unknown, type: string, by: string) => (data as { type?: string; by?: string }).type === type && (data as { by?: string }).by === by;
      expectOk(await server.post(path(chatAdminPaths.reply, conversationId), { text: 'Anything else?' }, { token: asOperator.token }));
      expectOk(await server.post(chatPaths.read, { seq: 4 }, { token: user.token }));
      expect(await back.take((message) => message.type === 'update' && chatOn(message.data, 'chat.read', 'user'), 'the user\'s read mark'))
        .toMatchObject({ data: { type: 'chat.read', seq: 4, by: 'user', conversationId } });
      expectOk(await server.post(chatPaths.typing, {}, { token: user.token }));
      expect(await back.take((message) => message.type === 'update' && chatOn(message.data, 'chat.typing', 'user'), 'the user typing'))
        .toMatchObject({ data: { conversationId } });
      const detailAfter = expectOk(await server.get(path(chatAdminPaths.conversation, conversationId), {}, { token: asOperator.token })).body.result;
      expect(detailAfter.userReadSeq).toBe(4);

      const audit = await server.db.select().from(auditLog).where(eq(auditLog.targetId, conversationId));
      expect(audit.map((row) => row.action).sort()).toEqual(['chat.read', 'chat.reply', 'chat.reply']);
      expect(audit.every((row) => row.operatorId === BigInt(operatorId) && row.userId === userId)).toBe(true);
    });

    it('carries chat on a bus of its own: the user\'s and the operators\' sockets get it, trading\'s user-event bus never does', async () => {
      const user = await server.registerByEmail();
      const userId = await userIdOf(server, user.email!);
      const onUserEvents: Array<{ userId: bigint; event: UserEvent }> = [];
      const onChatEvents: ChatDelivery[] = [];
      const stops = [
        server.services.userEvents.subscribe((id, event) => onUserEvents.push({ userId: id, event })),
        server.services.chatEvents.subscribe((delivery) => onChatEvents.push(delivery)),
      ];
      try {
        const socket = await connect();
        socket.send({ op: 'auth', token: user.token });
        expect((await socket.next('subscribed')).channels).toEqual(['user']);
        const back = await connect();
        back.send({ op: 'auth', token: asOperator.token, as: 'operator' });
        expect((await back.next('subscribed')).channels).toEqual([operatorChatChannel]);

        const sent = expectOk(await send(user.token, { clientMessageId: clientId(), text: 'Is anyone there?' })).body.result;
        const conversationId = sent.conversationId as string;
        expect((await back.nextOn(operatorChatChannel)).data).toMatchObject({
          type: 'chat.message', conversationId, userId: String(userId), message: { seq: 1, sender: 'user', text: 'Is anyone there?' },
        });
        expectOk(await server.post(path(chatAdminPaths.reply, conversationId), { text: 'Yes, here.' }, { token: asOperator.token }));
        expect((await back.nextOn(operatorChatChannel)).data).toMatchObject({ type: 'chat.message', message: { seq: 2, sender: 'operator' } });
        // On the user channel a chat event keeps its shape: kind "chat", the event in `chat`.
        const own = await socket.nextOn('user');
        expect(own.data).toEqual({ kind: 'chat', demo: false, chat: { type: 'chat.message', conversationId, message: expect.objectContaining({ seq: 1 }) } });
        expect((await socket.nextOn('user')).data).toMatchObject({ kind: 'chat', chat: { type: 'chat.message', message: { seq: 2, sender: 'operator' } } });

        // Each event was told once on the chat's bus, to the user or to the operators ...
        const told = onChatEvents.map((delivery) => (delivery.to === 'user' ? `user ${delivery.userId}` : 'operators') + ` ${delivery.event.message?.seq}`);
        expect(told).toEqual([`user ${userId} 1`, 'operators 1', `user ${userId} 2`, 'operators 2']);
        // ... and none on the user-event bus: no operators' stand-in user 0, no chat event.
        expect(onUserEvents.filter((heard) => heard.userId === 0n || heard.event.kind === 'chat')).toEqual([]);
      } finally {
        for (const stop of stops) stop();
      }
    });

    it('writes an internal message when the user\'s app is closed, assigns, transfers and closes with a system message', async () => {
      const user = await server.registerByEmail();
      const userId = await userIdOf(server, user.email!);
      const conversationId = expectOk(await send(user.token, { clientMessageId: clientId(), text: 'Hi' })).body.result.conversationId as string;
      const token = asOperator.token;

      expect(expectOk(await server.post(path(chatAdminPaths.assign, conversationId), {}, { token })).body.result)
        .toMatchObject({ assignedOperatorId: operatorId });
      const mine = expectOk(await server.get(chatAdminPaths.conversations, { mine: 'true' }, { token })).body.result;
      expect(mine.records.map((record: { id: string }) => record.id)).toContain(conversationId);

      expectOk(await server.post(path(chatAdminPaths.reply, conversationId), { text: 'We are on it.' }, { token }));
      const messages = await server.db.select().from(userMessages).where(eq(userMessages.userId, userId));
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ kind: 'chat_reply', category: 'chat', route: '/chat' });

      const other = await createOperator(server, 'admin');
      const [otherRow] = await server.query<{ id: string }>(sql`select id::text as id from operators where email = ${other.email}`);
      expect(expectOk(await server.post(path(chatAdminPaths.transfer, conversationId), { operatorId: otherRow.id }, { token })).body.result)
        .toMatchObject({ assignedOperatorId: otherRow.id });
      expectRefused(await server.post(path(chatAdminPaths.transfer, conversationId), { operatorId: '999999' }, { token }), 404, 'not_found');

      expect(expectOk(await server.post(path(chatAdminPaths.close, conversationId), {}, { token })).body.result).toMatchObject({ status: 'closed' });
      const closed = expectOk(await history(user.token)).body.result;
      expect(closed.status).toBe('closed');
      expect(closed.messages.at(-1)).toMatchObject({ sender: 'system', system: 'closed', seq: 3 });
      expectRefused(await server.post(path(chatAdminPaths.reply, conversationId), { text: 'late' }, { token }), 400, 'invalid_request');
      // The user's next message opens a new conversation, numbered from 1.
      const next = expectOk(await send(user.token, { clientMessageId: clientId(), text: 'One more thing' })).body.result;
      expect(next.conversationId).not.toBe(conversationId);
      expect(next.seq).toBe(1);

      const actions = (await server.db.select().from(auditLog).where(eq(auditLog.targetId, conversationId))).map((row) => row.action).sort();
      expect(actions).toEqual(['chat.assign', 'chat.close', 'chat.reply', 'chat.transfer']);
    });

    it('keeps canned replies (audited), shows a chat photo to operators only through its route, and refuses without a session', async () => {
      const token = asOperator.token;
      const created = expectOk(await server.post(chatAdminPaths.canned, { lang: 'en', title: 'Greeting', text: 'Hello, how can I help?' }, { token })).body.result;
      expectOk(await server.post(path(chatAdminPaths.cannedItem, created.id), { lang: 'en', title: 'Greeting', text: 'Hi! How can I help?' }, { token }));
      const listed = expectOk(await server.get(chatAdminPaths.canned, { lang: 'en' }, { token })).body.result;
      expect(listed.find((row: { id: string }) => row.id === created.id)).toMatchObject({ text: 'Hi! How can I help?' });
      expectOk(await server.post(path(chatAdminPaths.cannedDelete, created.id), {}, { token }));
      expectRefused(await server.post(path(chatAdminPaths.cannedDelete, created.id), {}, { token }), 404, 'not_found');
      expectRefused(await server.post(chatAdminPaths.canned, { lang: 'english!', title: 'x', text: 'y' }, { token }), 400, 'invalid_request');
      const actions = (await server.db.select().from(auditLog).where(eq(auditLog.targetId, created.id)))
        .filter((row) => row.targetType === 'chat_canned_reply').map((row) => row.action).sort();
      expect(actions).toEqual(['chat.canned.create', 'chat.canned.delete', 'chat.canned.update']);

      const user = await server.registerByEmail();
      const photo = expectOk(await upload(server, user.token, { bytes: await pngImage(), filename: 'a.png', contentType: 'image/png' }, 'chat')).body.result;
      const sent = expectOk(await send(user.token, { clientMessageId: clientId(), fileId: photo.id })).body.result;
      const operatorView = expectOk(await server.get(path(chatAdminPaths.conversation, sent.conversationId), {}, { token })).body.result;
      const imageUrl = operatorView.messages[0].imageUrl as string;
      const image = await getRaw(server, imageUrl.replace(/^\/api/, ''), token);
      expect(image.status).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect((await getRaw(server, imageUrl.replace(/^\/api/, ''), user.token)).status).toBe(401);
      expectRefused(await server.get(chatAdminPaths.conversations, {}, { token: user.token }), 401, 'unauthorized');
    });

    it('says nobody is on duty until a chat screen beats, and stores the offline-hours form', async () => {
      const user = await server.registerByEmail();
      server.clock.advance(120_000);
      expect(expectOk(await server.get(chatPaths.duty, {}, { token: user.token })).body.result).toEqual({ onDuty: false });
      const form = expectOk(await server.post(chatPaths.offlineForm,
        { contact: 'me@example.com', text: 'Please call me back', clientMessageId: clientId() }, { token: user.token })).body.result;
      expect(form).toMatchObject({ sender: 'system', offlineForm: true, text: 'Contact: me@example.com\nPlease call me back' });
      const onDuty = expectOk(await server.post(chatAdminPaths.duty, {}, { token: operatorToken })).body.result;
      expect(onDuty.map((row: { operatorId: string }) => row.operatorId)).toContain(operatorId);
      expect(expectOk(await server.get(chatPaths.duty, {}, { token: user.token })).body.result).toEqual({ onDuty: true });
    });
  });
}, { databases: 'embedded' });
