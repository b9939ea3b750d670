// The competition check of a contract open (issue 23): positions.ts calls it inside the open's
// transaction when the order names a competition. The entry row is locked (shared), so an exit or
// the end that closes the entry's positions waits for the open, and an open after them sees the
// entry exited or ended.
import { and, eq } from 'drizzle-orm';
import { competitionEntries, competitions } from '../../db/schema.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, conflict, notFound } from '../../lib/errors.ts';

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
