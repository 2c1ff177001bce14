// Checked under the web tsconfig (with the DOM's types): the functions the
// tests run in the page fit the shape the Node side calls them by.

import type * as inPage from './in-page.ts';
import type { InPageModule } from './in-page-shapes.ts';

type Fits<Actual extends Expected, Expected> = Actual;
export type InPageFits = Fits<typeof inPage, InPageModule>;
