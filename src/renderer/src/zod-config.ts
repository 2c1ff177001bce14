// Imported first by main.tsx, before any module defines a schema: the page's
// Content-Security-Policy allows no eval, so zod must neither compile its
// validators with new Function nor probe whether it may (it probes when a
// schema is defined, and the refused probe is reported as a violation).

import { z } from 'zod';

z.config({ jitless: true });
