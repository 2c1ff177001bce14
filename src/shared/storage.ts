// The app's data folder cannot be written (a full disk, a read-only one, no
// permission): what the renderer shows, once, until saving works again.

export interface StorageProblem {
  /** The folder, as a clerk would look for it. */
  readonly folder: string;
  /** ENOSPC, EDQUOT, EROFS, EACCES or EPERM; ENEWER for data a newer version saved. */
  readonly code: string;
  /** One sentence naming the folder and what it means. */
  readonly message: string;
  /** What Details says, when it is not the system's error code. */
  readonly detail?: string;
}
