// Delivery of one-time codes. By default a dev outbox: every message is logged and written to
// <dataDir>/outbox/<time>-<channel>.json. With SMTP_URL, e-mail goes out through nodemailer.
// SMS has no provider yet; it stays behind the same interface and lands in the outbox.
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export type Channel = 'email' | 'sms';
export interface OutgoingMessage { to: string; channel: Channel; text: string; code: string }
export interface MessageSender { send(message: OutgoingMessage): Promise<void> }

export function outboxSender(dataDir: string, log: FastifyBaseLogger): MessageSender {
  const dir = path.join(dataDir, 'outbox');
  return {
    async send(message) {
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      // Written whole to a temporary name, then linked into place, so a reader never sees half a
      // message and an existing message is never overwritten.
      const temporary = path.join(dir, `.${stamp}-${process.pid}-${Math.random().toString(36).slice(2)}.tmp`);
      await fs.writeFile(temporary, JSON.stringify(message, null, 2));
      try {
        for (let attempt = 0; ; attempt += 1) {
          const file = path.join(dir, `${stamp}${attempt ? `-${attempt}` : ''}-${message.channel}.json`);
          try {
            await fs.link(temporary, file);
            log.info({ outbox: file, to: message.to, channel: message.channel }, `outbox: ${message.text}`);
            return;
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 100) throw error;
          }
        }
      } finally {
        await fs.unlink(temporary).catch(() => undefined);
      }
    },
  };
}

export function smtpSender(smtpUrl: string, from: string, fallback: MessageSender): MessageSender {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(message) {
      if (message.channel !== 'email') return fallback.send(message);
      await transport.sendMail({ from, to: message.to, subject: message.code ? 'Your Bourse verification code' : 'About your Bourse account',
        text: message.text });
    },
  };
}
