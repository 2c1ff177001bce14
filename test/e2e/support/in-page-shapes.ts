// The functions of in-page.ts as the Node side sees them: plain data in and
// out, no DOM types. in-page.ts needs the DOM's types, which the Node
// tsconfig rightly does not load, so it is imported at run time by path and
// typed with this shape; in-page-fits.ts checks (under the web tsconfig)
// that the real module fits it.

export interface AxeFinding {
  /** The axe rule, e.g. "color-contrast". */
  readonly rule: string;
  readonly impact: string;
  readonly help: string;
  readonly targets: readonly string[];
}

export interface InPageModule {
  rowsInView(): number;
  frameOf(): {
    pageScrollsDown: boolean;
    pageScrollsAcross: boolean;
    pageScrolled: boolean;
    headerHeight: number;
    headerLines: number;
  };
  cutOff(): { cut: string[]; sideways: boolean };
  gridScroll(): { top: number; left: number; headLeft: number };
  /** `left: -1` scrolls to the far right. */
  scrollGrid(to: { top: number; left: number }): void;
  screenScroll(): { overflowY: string; fits: boolean };
  stretchScreen(on: boolean): void;
  contentSecurityPolicy(): string;
  tryInlineStyle(): void;
  setStagingKey(key: string): Promise<void>;
  setUpEnvironment(setup: {
    environment: 'staging' | 'production';
    baseUrl: string;
    key: string;
  }): Promise<void>;
  recordNotices(): void;
  recordedNotices(): {
    notices: string;
    bulk: string;
    cancelDisabled: boolean;
    alerts: number;
  }[];
  boxOf(selector: string): { top: number; bottom: number; left: number; right: number } | null;
  linesOf(selector: string): number | null;
  rowIdAt(point: { x: number; y: number }): string | null;
  watchCspViolations(): void;
  twoFrames(): Promise<void>;
  axeLoaded(): boolean;
  axeSeriousFindings(include?: readonly string[]): Promise<AxeFinding[]>;
  clerkWork(work: {
    baseUrl: string;
    key: string;
    cancel: string;
    mark: string;
    bulk: string[];
    project: string;
  }): Promise<void>;
  clerkWorkNow(): Promise<ClerkWork>;
}

/** What the app holds of a clerk's work in Production (in-page.ts's clerkWorkNow). */
export interface ClerkWork {
  activeEnvironment: string;
  productionAddress: string | undefined;
  cachedCount: number | undefined;
  cancelLog: { orderId: string; result: string }[];
  marks: Record<string, { reviewed: boolean; note: string }>;
  bulk: {
    status: string;
    total: number;
    answered: string[];
    /** DELETEs sent whose answers have not come yet (0: nothing more of the job changes while paused). */
    answersOnTheirWay: number;
  } | null;
  projects: string[];
  domains: Record<string, string>;
}

// Held in a variable so the Node tsconfig does not follow the path.
const IN_PAGE = './in-page.ts';

export const inPage = (await import(/* @vite-ignore */ IN_PAGE)) as InPageModule;
