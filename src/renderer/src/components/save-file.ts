// Hands a file the app made (a CSV export) to the user as a download: a Blob
// behind a temporary <a download>, its object URL released once the download
// has taken its copy.

/** Prepended to text files so spreadsheet programs read them as UTF-8. */
const BYTE_ORDER_MARK = '\uFEFF';

/** Offers `parts` (joined as they are, never copied into one string) as a UTF-8 text file named `name`. */
export function saveTextFile(name: string, parts: readonly string[], type: string): void {
  const blob = new Blob([BYTE_ORDER_MARK, ...parts], { type: `${type};charset=utf-8` });
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(href), 0);
  }
}

/** A file-name-safe local timestamp: 2025-11-22-0912. */
export function fileStamp(epochMs: number): string {
  const d = new Date(epochMs);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}-${two(d.getHours())}${two(d.getMinutes())}`;
}
