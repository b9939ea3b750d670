// External links (spec §2): mode 1 does nothing, 2 navigates directly, 4 opens the in-app
// outside-link page (#/outlink?url=<encoded target>).
export type LinkMode = 1 | 2 | 4;

export type LinkAction =
  | { kind: 'none' }
  | { kind: 'navigate'; url: string }
  | { kind: 'outlink'; path: string };

export function isSafeExternalUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:';
  } catch {
    return false;
  }
}

export function linkAction(mode: LinkMode, url: string): LinkAction {
  if (mode === 1 || !isSafeExternalUrl(url)) return { kind: 'none' };
  if (mode === 2) return { kind: 'navigate', url };
  return { kind: 'outlink', path: `/outlink?url=${encodeURIComponent(url)}` };
}
