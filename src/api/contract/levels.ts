// VIP levels on the wire (issue 22): a user's level follows total assets in USDT (checked daily
// by the vip-levels job and after large movements), with the thresholds and what each unlocks.
import { Type, type Static } from '@sinclair/typebox';
import { AmountText } from './wallet.ts';

export const levelPaths = {
  /** GET → Levels (thresholds public; the caller's level and assets when logged in). */
  list: '/user/appLevels/list',
} as const;

export const levelAdminPaths = {
  /** GET → VipLevel[]; POST UpdateLevelBody to /admin/levels/:level. */
  levels: '/admin/levels',
  level: '/admin/levels/:level',
} as const;

export const VipLevel = Type.Object({
  level: Type.Integer(),
  name: Type.String(),
  /** Total assets in USDT from which the level applies. */
  minAssets: Type.String(),
  /** Added to the credit-loan limit. */
  creditLimit: Type.String(),
  /** Products whose VIP level limit this level meets (count). */
  productsUnlocked: Type.Integer(),
});
export type VipLevel = Static<typeof VipLevel>;

export const Levels = Type.Object({
  levels: Type.Array(VipLevel),
  /** Logged in: the caller's level, their total assets in USDT when last checked, and when. */
  my: Type.Optional(Type.Object({
    level: Type.Integer(), highestLevel: Type.Integer(), assets: Type.String(), checkedAt: Type.Integer(),
    /** USDT still needed for the next level (absent at the top). */
    toNext: Type.Optional(Type.String()),
  })),
});
export type Levels = Static<typeof Levels>;

export const UpdateLevelBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  minAssets: Type.Optional(AmountText),
  creditLimit: Type.Optional(AmountText),
}, { additionalProperties: false });
