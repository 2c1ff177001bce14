// Where the app's updates come from, as Settings shows it: an address the
// company gives when it builds the app, or one entered in Settings. With
// none, nothing is checked and nothing is sent.

/** The update server's address as Settings shows it. */
export interface UpdateSettingsView {
  /** Undefined: none is set, so updates are never checked. */
  readonly address?: string;
  /** `build`: given when the app was built (the company's; not changed here). */
  readonly source: 'build' | 'settings' | 'none';
  /** The update channel: which release line (`latest`, `beta`, …) the server's files describe. */
  readonly channel: string;
}

/** electron-builder's channel when none is given: the server's latest.yml (latest-linux.yml, …). */
export const DEFAULT_UPDATE_CHANNEL = 'latest';
export const MAX_UPDATE_ADDRESS_LENGTH = 512;

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * An update server's address: https:// (plain http:// only on this computer,
 * for trying an update server out), no user name or password, no query.
 * Returned with one trailing slash: the folder the update files sit in.
 */
export function checkUpdateAddress(
  input: string,
): { ok: true; value: string } | { ok: false; message: string } {
  const text = input.trim();
  if (text === '')
    return {
      ok: false,
      message:
        'Enter the update server’s address, for example https://updates.example.com/store-admin/.',
    };
  if (text.length > MAX_UPDATE_ADDRESS_LENGTH)
    return {
      ok: false,
      message: `This address is too long: at most ${MAX_UPDATE_ADDRESS_LENGTH} characters.`,
    };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      message:
        'This is not a web address. It should look like https://updates.example.com/store-admin/.',
    };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.test(url.hostname)))
    return {
      ok: false,
      message: 'Use https:// (plain http:// is allowed only for this computer, 127.0.0.1).',
    };
  if (url.username || url.password)
    return { ok: false, message: 'Leave the user name and password out of the address.' };
  if (url.search || url.hash)
    return { ok: false, message: 'Remove the part after ? or # from the address.' };
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/`;
  return { ok: true, value: url.href };
}
