// Electron's crashReporter (docs/api/crash-reporter.md): the options are kept
// (tests read them); no minidump is ever written or uploaded by the stand-in.

export const crashReporterStarts: Electron.CrashReporterStartOptions[] = [];

export const crashReporter = {
  start(options: Electron.CrashReporterStartOptions): void {
    crashReporterStarts.push(options);
  },
  getLastCrashReport: (): Electron.CrashReport | null => null,
  getUploadedReports: (): Electron.CrashReport[] => [],
  getUploadToServer: (): boolean => crashReporterStarts.at(-1)?.uploadToServer ?? false,
  setUploadToServer(upload: boolean): void {
    crashReporterStarts.push({
      ...(crashReporterStarts.at(-1) ?? {}),
      uploadToServer: upload,
    });
  },
  addExtraParameter(): void {},
  removeExtraParameter(): void {},
  getParameters: (): Record<string, string> => ({}),
};
