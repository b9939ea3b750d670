// The proof of liabilities as the asset centre shows it: the logged-in user's leaf and path in the
// newest publication, fetched here (injected beside walletApi's endpoints) and verified in the
// browser with the same tree code the server builds with (api/contract/liabilityTree.ts). What
// the card says follows from `proofStateOf`, a pure function of the answer and the user's id.
import { api } from '../../api/api.ts';
import {
  liabilityPaths, type LiabilityAbsenceReason, type LiabilityProof, type LiabilityProofResult, type LiabilityRoot,
} from '../../api/contract/liabilities.ts';
import { verifyLiabilityProof, type ProofFailure } from '../../api/contract/liabilityTree.ts';

export const liabilityApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Quiet: the card shows a failure in place, with a retry.
    liabilityProof: build.query<LiabilityProofResult, void>({
      query: () => ({ url: liabilityPaths.proof, quiet: true }),
    }),
  }),
});

export const { useLiabilityProofQuery } = liabilityApi;

export type ProofState =
  /** Nothing published yet. */
  | { status: 'none' }
  /**
   * A total is published, but this user has no leaf in it: `absence` is the server's reason (an
   * account opened after it, a guest without real money), null when it gives none (a warning).
   */
  | { status: 'absent'; root: LiabilityRoot; absence: LiabilityAbsenceReason | null }
  | { status: 'verified'; root: LiabilityRoot; proof: LiabilityProof }
  /** The proof does not lead to the published root: a warning. */
  | { status: 'mismatch'; root: LiabilityRoot; proof: LiabilityProof; failure: ProofFailure };

/**
 * What the answer proves. `userId` is the logged-in user's id, so that a proof of someone else's
 * leaf (the same balances, another id) is a mismatch, not a success.
 */
export function proofStateOf(result: LiabilityProofResult, userId: string): ProofState {
  if (!result.root) return { status: 'none' };
  if (!result.proof) return { status: 'absent', root: result.root, absence: result.absence ?? null };
  let check: ReturnType<typeof verifyLiabilityProof>;
  try {
    check = verifyLiabilityProof(result.root, result.proof, userId);
  } catch {
    check = { ok: false, failure: 'shape' };
  }
  return check.ok
    ? { status: 'verified', root: result.root, proof: result.proof }
    : { status: 'mismatch', root: result.root, proof: result.proof, failure: check.failure };
}
