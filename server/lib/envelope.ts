// The envelope of every answer (spec §7–§8): { success, message, code, result, timestamp }.
export const ok = <T>(result: T, message = 'OK') => ({
  success: true, message, code: 200, result, timestamp: Date.now(),
});

export const failure = (code: number, message: string, result: unknown) => ({
  success: false, message, code, result, timestamp: Date.now(),
});
