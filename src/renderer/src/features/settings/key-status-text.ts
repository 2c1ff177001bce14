// A key status in plain words. It says where a key is kept, never the key.

import type { KeyStatus } from '../../../../shared/key-status.ts';

export function describeKeyStatus(status: KeyStatus): string {
  if (!status.set) return 'No key set';
  switch (status.storage) {
    case 'os-encrypted':
    case 'weak-accepted':
      return `Key set — stored in ${status.backend}`;
    case 'session-only':
      return 'Key set — kept in memory until you quit, not saved';
    case 'none':
      return 'No key set';
  }
}
