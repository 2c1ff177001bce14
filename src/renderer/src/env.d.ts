/// <reference types="vite/client" />

// What the preload exposes (src/preload/index.ts). The type is derived from
// the object the preload builds, so this declaration cannot drift from it.
import type { StoreAdminApi } from '../../shared/api.ts';

declare global {
  interface Window {
    storeAdmin: StoreAdminApi;
  }
}

export {};
