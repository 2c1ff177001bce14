// The origin a key is bound to: scheme, host and port of the address it was
// saved for. A key goes only to that origin; another origin must be confirmed.

/** The origin of a base URL, e.g. `https://api.example.com` for `https://api.example.com/v1`. */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** Whether `text` is an http(s) origin exactly as `originOf` writes it (a file may hold anything). */
export function isOrigin(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === text;
  } catch {
    return false;
  }
}

/**
 * Two origins as a clerk should read them: the host (with its port when it
 * has one), or the whole origin when the hosts alone would look the same.
 */
export function originNames(from: string, to: string): { from: string; to: string } {
  const fromHost = new URL(from).host;
  const toHost = new URL(to).host;
  return fromHost === toHost ? { from, to } : { from: fromHost, to: toHost };
}
