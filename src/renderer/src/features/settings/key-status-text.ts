// A key status in plain words. It says where a key is kept, never the key,
// and never a storage backend's technical name.

import type { KeyStatus } from '../../../../shared/key-status.ts';

export function describeKeyStatus(status: KeyStatus): string {
  if (!status.set) return 'No key set';
  switch (status.storage) {
    case 'os-encrypted':
      return `Key saved in ${status.backend}`;
    case 'weak-accepted':
      return 'Key saved without protection, as you chose';
    case 'session-only':
      return 'Key kept until you quit, not saved';
    case 'none':
      return 'No key set';
  }
}
