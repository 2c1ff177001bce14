// The three places Store Admin can talk to. Production and staging have a
// base URL set by the user; the sandbox is started by the app on loopback.

export type EnvironmentId = 'sandbox' | 'staging' | 'production';
export type RemoteEnvironmentId = Exclude<EnvironmentId, 'sandbox'>;

export const ENVIRONMENT_IDS: readonly EnvironmentId[] = ['sandbox', 'staging', 'production'];

export const ENVIRONMENT_LABELS: Readonly<Record<EnvironmentId, string>> = {
  sandbox: 'Sandbox',
  staging: 'Staging',
  production: 'Production',
};

/**
 * The sandbox's Pro-plan demo key, which the development harness and the tests
 * give their sandbox. The app itself makes a fresh key at each start
 * (createSandboxKey in src/main/sandbox/api-keys.ts) and ships no fixed one.
 */
export const SANDBOX_DEMO_KEY = 'demo-pro';

export function isRemoteEnvironment(id: EnvironmentId): id is RemoteEnvironmentId {
  return id !== 'sandbox';
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The longest base address accepted, wherever one is entered (Settings, the
 * command line), as written and once normalised: every local file of a
 * service names its address in a fixed-size header (the order cache's is
 * 1 KiB), which must hold it.
 */
export const MAX_BASE_URL_LENGTH = 512;

/**
 * Checks a base URL as the interface describes it: https (only loopback may
 * use http), ending with the path prefix `/v1`, at most MAX_BASE_URL_LENGTH
 * characters. Returns the normalised URL (no trailing slash) or a message
 * saying what to fix.
 */
export function validateBaseUrl(
  input: string,
): { ok: true; value: string } | { ok: false; message: string } {
  const text = input.trim();
  const tooLong = {
    ok: false as const,
    message: `This address is too long: at most ${MAX_BASE_URL_LENGTH} characters.`,
  };
  if (text.length > MAX_BASE_URL_LENGTH) return tooLong;
  if (text === '')
    return {
      ok: false,
      message: 'Enter the base address, for example https://api.example.com/v1.',
    };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      message: 'This is not a web address. It should look like https://api.example.com/v1.',
    };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return {
      ok: false,
      message: 'Use https:// (plain http:// is allowed only for this computer, 127.0.0.1).',
    };
  }
  if (url.username || url.password) {
    return {
      ok: false,
      message:
        'Leave the user name and password out of the address; the API key is entered separately.',
    };
  }
  if (url.search || url.hash) {
    return { ok: false, message: 'Remove the part after ? or # from the address.' };
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) {
    return { ok: false, message: 'The address must end with /v1, the API version.' };
  }
  const value = `${url.origin}${path}`;
  // Normalised, an address can grow (a name in another script, characters encoded).
  if (value.length > MAX_BASE_URL_LENGTH) return tooLong;
  return { ok: true, value };
}
