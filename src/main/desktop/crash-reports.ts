// Electron's crash reporter, writing minidumps to the app's crashDumps folder
// only: nothing is uploaded, so crash dumps stay on this computer.

export interface CrashReporterLike {
  start(options: { uploadToServer: boolean; compress?: boolean; submitURL?: string }): void;
}

export function startLocalCrashReports(crashReporter: CrashReporterLike): void {
  crashReporter.start({ uploadToServer: false, compress: true });
}
