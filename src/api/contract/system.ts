// Public and system calls: server time, the public key of the encrypted-body protocol, settings.
import { Type, type Static } from '@sinclair/typebox';

export const ServerTime = Type.Object({
  /** Milliseconds since the epoch. */
  serverTime: Type.Integer(),
  /** Identifies the build the server serves; a different value means a new version is out. */
  version: Type.String(),
});
export type ServerTime = Static<typeof ServerTime>;

export const GetKeyByParamQuery = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_.]+$' }),
}, { additionalProperties: false });

/** Value of the `sys_set` setting; `result` of getKeyByParam is this object as a JSON string. */
export interface SysSet { isPcLimite: boolean }
