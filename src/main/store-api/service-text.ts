// Text that came from the service (an error body's message and code, a
// redirect's host, a deprecation link) is made safe here, once, after it is
// decoded: a key the service echoed is taken out in every form an echo can
// take, and control characters that would move a terminal's cursor or hide
// text go. What leaves the client is then safe for a log, a file, the
// renderer and a terminal alike.

/** What an echoed key becomes in text the service sent. */
export const KEY_PLACEHOLDER = '[API key]';

// C0 controls, DEL and C1 controls (0x9B is a terminal's CSI), and the
// Unicode controls that reorder or hide text (bidi overrides and isolates,
// zero-width joiners, the BOM): a clerk must see what the text says.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]+/g;

/** The text with its control characters turned into single spaces, trimmed. */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS, ' ').replace(/ {2,}/g, ' ').trim();
}

/**
 * The spellings a secret takes in text: as it is, percent-encoded (either
 * case of hex digits), and JSON-escaped with `/` as `\/` (PHP's
 * json_encode) or not. Decoded text holds the first; the others are for raw
 * text, such as a body a library put in an error.
 */
export function spellingsOf(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    ...new Set([
      secret,
      encoded,
      encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
      json,
      json.replaceAll('/', '\\/'),
    ]),
  ].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every spelling of each secret replaced by `placeholder`.
 * Secrets shorter than `minLength` are left alone: "ab" would take half of
 * any sentence with it.
 */
export function withoutSecrets(
  text: string,
  secrets: Iterable<string>,
  placeholder: string,
  minLength = 4,
): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length < minLength) continue;
    for (const spelling of spellingsOf(secret)) result = result.split(spelling).join(placeholder);
  }
  return result;
}

/** Service text as the client passes it on: keys out, then controls out. */
export function serviceText(text: string, keys: Iterable<string>): string {
  const known = [...keys];
  // Keys out again after the controls: a control inside an echoed key must not put it back together.
  return withoutSecrets(
    withoutControls(withoutSecrets(text, known, KEY_PLACEHOLDER)),
    known,
    KEY_PLACEHOLDER,
  );
}
