// Reading settings back from disk: a hand-edited or damaged file must not
// break the app, so anything that does not validate falls back to defaults
// field by field.

import { z } from 'zod';
import { validateBaseUrl } from '../../shared/environments.ts';
import { DEFAULT_SETTINGS, type Settings } from './environment-service.ts';

const baseUrl = z.string().refine((url) => validateBaseUrl(url).ok);

const settingsSchema = z.object({
  activeEnvironment: z
    .enum(['sandbox', 'staging', 'production'])
    .catch(DEFAULT_SETTINGS.activeEnvironment),
  baseUrls: z
    .object({
      staging: baseUrl.optional().catch(undefined),
      production: baseUrl.optional().catch(undefined),
    })
    .catch({}),
});

export function parseSettings(stored: unknown): Settings {
  const parsed = settingsSchema.safeParse(stored ?? {});
  if (!parsed.success) return DEFAULT_SETTINGS;
  const { staging, production } = parsed.data.baseUrls;
  return {
    activeEnvironment: parsed.data.activeEnvironment,
    baseUrls: { ...(staging ? { staging } : {}), ...(production ? { production } : {}) },
  };
}
