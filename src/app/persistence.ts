// Persisted state: versioned, validated on rehydrate, with defaults for anything missing or
// malformed, so an old or damaged IndexedDB entry can never crash the app.
import type { MigrationManifest, PersistedState } from 'redux-persist';
import { initialUserState, type CountryInfo, type UserState } from '../features/auth/userSlice.ts';

export const persistVersion = 1;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);

function parseCountry(value: unknown): CountryInfo {
  if (!isRecord(value)) return initialUserState.countryInfo;
  const fields = ['english_name', 'chinese_name', 'country_code', 'phone_code'] as const;
  if (!fields.every((field) => typeof value[field] === 'string')) return initialUserState.countryInfo;
  return Object.fromEntries(fields.map((field) => [field, value[field]])) as unknown as CountryInfo;
}

/** Returns a valid user state from anything read back from storage. */
export function parseUserState(value: unknown): UserState {
  if (!isRecord(value)) return initialUserState;
  const userInfo = isRecord(value.userInfo) && typeof value.userInfo.id === 'string' ? value.userInfo : {};
  return {
    token: text(value.token, ''),
    userInfo: userInfo as UserState['userInfo'],
    tradeAssetInfo: isRecord(value.tradeAssetInfo) ? value.tradeAssetInfo : {},
    positionsSummary: isRecord(value.positionsSummary) ? value.positionsSummary : {},
    countryInfo: parseCountry(value.countryInfo),
    redirectTo: text(value.redirectTo, ''),
    commonConfig: isRecord(value.commonConfig) ? value.commonConfig : {},
    address: text(value.address, ''),
  };
}

export interface PersistedRoot { user: UserState }

export const migrations: MigrationManifest = {
  // Version 0 kept the token and user info at the top level of the persisted object.
  1: (state) => {
    const old = (state ?? {}) as Record<string, unknown>;
    const user = isRecord(old.user) ? old.user : { token: old.token, userInfo: old.userInfo, countryInfo: old.countryInfo };
    return { _persist: old._persist, user: parseUserState(user) } as unknown as PersistedState;
  },
};

/** Applied after migrations: validates the current version's shape. */
export function validatePersisted(state: unknown): PersistedRoot {
  return { user: parseUserState(isRecord(state) ? state.user : undefined) };
}
