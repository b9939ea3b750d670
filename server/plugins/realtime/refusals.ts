// The channel names one subscribe, unsubscribe or resync had refused, answered with one error frame
// per message however many names it carried: the first name's reason and name (`code`, `channel`,
// as a client that reads one name expects), the first few names, and counts of the rest. So a
// client cannot make the hub echo back more than a few short names per message.
import type { ServerMessage } from '../../../src/api/contract/market.ts';
import type { RealtimeSettings } from './settings.ts';

type ErrorCode = Extract<ServerMessage, { type: 'error' }>['code'];
export type RefusalCode = Extract<ErrorCode, 'unknown_channel' | 'too_many_subscriptions' | 'not_subscribed'>;

/** Refused names an error lists (its message counts the rest), and how much of each it echoes. */
export const refusedChannelsListedMax = 8;
const channelNameEchoedMax = 64;

/** The names one message had refused, in order, for its one error frame. */
export class Refusals {
  readonly listed: string[] = [];
  readonly counts = new Map<RefusalCode, number>();
  first: { code: RefusalCode; name: string } | undefined;

  add(code: RefusalCode, name: string) {
    const echoed = name.slice(0, channelNameEchoedMax);
    this.first ??= { code, name: echoed };
    if (this.listed.length < refusedChannelsListedMax) this.listed.push(echoed);
    this.counts.set(code, (this.counts.get(code) ?? 0) + 1);
  }

  get total(): number {
    let total = 0;
    for (const count of this.counts.values()) total += count;
    return total;
  }

  /** The one error frame for everything refused, or undefined when nothing was. */
  error(settings: RealtimeSettings): ServerMessage | undefined {
    const { first } = this;
    if (!first) return undefined;
    let message = refusalReason(first.code, settings);
    if (this.total > 1) {
      const counts = [...this.counts].map(([code, count]) => `${count} ${code}`).join(', ');
      message += ` ${this.total} channels were refused (${counts}); the first ${this.listed.length} are listed.`;
    }
    return { type: 'error', code: first.code, message, channel: first.name, channels: this.listed };
  }
}

function refusalReason(code: RefusalCode, settings: RealtimeSettings): string {
  switch (code) {
    case 'unknown_channel': return 'There is no such channel, symbol or period.';
    case 'too_many_subscriptions': return `A connection may hold ${settings.subscriptionsPerConnectionMax} subscriptions.`;
    case 'not_subscribed': return 'This connection is not subscribed to the channel.';
  }
}
