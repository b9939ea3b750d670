// Conformance: a spec-only client chats with support through the paths the issue names (POST
// /api/user/appChat/send, GET /api/user/appChat/history), encrypted like every POST. Field names
// were read (not imported) from src/api/contract/chat.ts: clientMessageId, text, afterSeq, seq.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenOf } from './specClient.ts';
import { describeAnswer, expectSuccess } from './expectAnswer.ts';

interface Message { conversationId: string; seq: number; sender: string; clientMessageId?: string; text?: string; createdAt: number }
interface History { conversationId?: string; messages: Message[]; lastSeq: number; operatorReadSeq: number; status: string }

let server: RunningServer;
let client: SpecClient;
let token: string;
const email = `conf-chat-${crypto.randomBytes(5).toString('hex')}@example.test`;
const clientId = () => `conf${crypto.randomBytes(8).toString('hex')}`;

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const code = await readCode(server.dataDir, email, 'email');
  const registered = await client.register({ accountType: 'email', account: email, password: 'Chat2026conf', code });
  token = tokenOf(registered)!;
  expect(token, describeAnswer(registered)).toEqual(expect.any(String));
});

afterAll(async () => {
  await server?.stop();
});

describe('chat calls of issue 21', () => {
  it('POST /user/appChat/send numbers messages, and a resend answers the stored one', async () => {
    const empty = expectSuccess(await client.get<History>('/user/appChat/history', {}, token));
    expect(empty).toMatchObject({ status: 'none', messages: [] });
    const id = clientId();
    const first = expectSuccess(await client.post<Message>('/user/appChat/send', { clientMessageId: id, text: 'Hello' }, token));
    expect(first).toMatchObject({ seq: 1, sender: 'user', clientMessageId: id, text: 'Hello' });
    expect(expectSuccess(await client.post<Message>('/user/appChat/send', { clientMessageId: id, text: 'Hello' }, token))).toEqual(first);
    const second = expectSuccess(await client.post<Message>('/user/appChat/send', { clientMessageId: clientId(), text: 'Second' }, token));
    expect(second.seq).toBe(2);
    const refused = await client.post('/user/appChat/send', { clientMessageId: clientId() }, token);
    expect({ status: refused.status, error: errorOf(refused) }, describeAnswer(refused)).toEqual({ status: 400, error: 'invalid_request' });
    const anonymous = await client.post('/user/appChat/send', { clientMessageId: clientId(), text: 'x' });
    expect(anonymous.status).toBe(401);
  });

  it('GET /user/appChat/history answers the conversation, and afterSeq what came after', async () => {
    const all = expectSuccess(await client.get<History>('/user/appChat/history', {}, token));
    expect(all).toMatchObject({ status: 'open', lastSeq: 2, operatorReadSeq: 0 });
    expect(all.messages.map((message) => [message.seq, message.text])).toEqual([[1, 'Hello'], [2, 'Second']]);
    const after = expectSuccess(await client.get<History>('/user/appChat/history', { afterSeq: '1' }, token));
    expect(after.messages.map((message) => message.seq)).toEqual([2]);
  });
});
