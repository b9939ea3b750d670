// The competition checks of trading (issues 23 and 38), called by positions.ts inside its
// transactions through the CompetitionRules port (kernel/ports.ts; app.ts wires competitionRules). An open that names a competition locks the entry row (shared), so an exit or the
// end that closes the entry's positions waits for the open, and an open after them sees the entry
// exited or ended. Once a competition's end instant has passed, its positions belong to the end:
// the user's close and level changes are refused (position_competition_ended) and take-profit,
// stop-loss and liquidation fire only on ticks before the end; the end itself closes them all at
// the end tick (ending.ts).
import { and, eq, inArray } from 'drizzle-orm';
import { competitionEntries, competitions } from '../../../db/schema.ts';
import type { Executor } from '../../../db/client.ts';
import { AppError, conflict, notFound } from '../../../lib/errors.ts';
import type { CompetitionRules } from '../../kernel/ports.ts';

export async function checkCompetitionTrade(tx: Executor, userId: bigint, competitionId: bigint, symbol: string, now: Date): Promise<void> {
  const [competition] = await tx.select().from(competitions).where(eq(competitions.id, competitionId)).limit(1);
  if (!competition || competition.status === 'cancelled') throw notFound('competition_not_found', 'There is no such competition.');
  const [entry] = await tx.select().from(competitionEntries)
    .where(and(eq(competitionEntries.competitionId, competitionId), eq(competitionEntries.userId, userId))).for('share').limit(1);
  if (!entry || entry.status !== 'joined') throw conflict('competition_not_joined', 'You are not in this competition.');
  const t = now.getTime();
  if (competition.status !== 'scheduled' && competition.status !== 'running' || t < competition.startsAt.getTime() || t >= competition.endsAt.getTime()) {
    throw conflict('competition_not_running', 'Competition trades are open only while the competition runs.');
  }
  if (!competition.symbols.includes(symbol)) {
    throw new AppError(400, 'competition_symbol_not_allowed', `${symbol} is not traded in this competition.`, { symbols: competition.symbols });
  }
}

/** The end instant (ms) of each given competition; an end never changes once the competition is made. */
export async function competitionEndsMs(db: Executor, competitionIds: readonly bigint[]): Promise<Map<bigint, number>> {
  const ids = [...new Set(competitionIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: competitions.id, endsAt: competitions.endsAt }).from(competitions).where(inArray(competitions.id, ids));
  return new Map(rows.map((row) => [row.id, row.endsAt.getTime()]));
}

/**
 * Refuses the user's close or level change of a competition position once the competition has
 * ended at `nowMs`: from its end instant the position is the end's to close, at the end tick.
 */
export async function checkCompetitionPositionLive(db: Executor, competitionId: bigint | null, nowMs: number): Promise<void> {
  if (competitionId === null) return;
  const endsMs = (await competitionEndsMs(db, [competitionId])).get(competitionId);
  if (endsMs !== undefined && nowMs >= endsMs) {
    throw new AppError(409, 'position_competition_ended',
      'This competition has ended: its positions are closed at the last price of its end, whatever the price since.',
      { endTime: endsMs });
  }
}

/** The competition rules trading is given (kernel/ports.ts), wired by composition. */
export const competitionRules: CompetitionRules = {
  checkTrade: checkCompetitionTrade, endsMs: competitionEndsMs, checkPositionLive: checkCompetitionPositionLive,
};
