// A device's name from its user agent: the browser family and the operating system ("Chrome on
// Android"), no version numbers, so an update does not make a device new. The name is the key a
// login is compared by for new-device notices. Order matters: Edge, Opera and Samsung Internet
// also say "Chrome", Chrome also says "Safari", Android also says "Linux".

export interface DeviceName {
  /** "Chrome on Android", "Firefox", "Windows", or "Unknown device". */
  device: string;
  /** The browser family, "" when unknown. */
  browser: string;
  /** The operating system, "" when unknown. */
  os: string;
}

const browsers: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera|OPT)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\b(?:iPhone|iPad|iPod)\b.*\bAppleWebKit\//, 'Safari'],
];

const systems: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const first = (list: [RegExp, string][], text: string) => list.find(([pattern]) => pattern.test(text))?.[1] ?? '';

export function deviceOf(userAgent: string | null | undefined): DeviceName {
  const text = (userAgent ?? '').slice(0, 400);
  const browser = first(browsers, text);
  const os = first(systems, text);
  const device = browser && os ? `${browser} on ${os}` : browser || os || 'Unknown device';
  return { device, browser, os };
}
