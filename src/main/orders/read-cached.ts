// The saved list read back into columns through the same scanner a download
// goes through, a chunk of the file at a time: the renderer gets its rows as
// they are read (the first ones within milliseconds), and main never holds
// the file's text. A file that does not read as the list its header
// describes is damaged.

import type { OrderColumns } from '../../shared/order-columns.ts';
import { OrderListScanner } from '../../shared/order-list-scanner.ts';
import type { CachedOrderReader } from './order-cache.ts';
import type { RowsSoFar } from './order-stream.ts';

export class DamagedCacheError extends Error {
  override name = 'DamagedCacheError';
}

export async function readCachedColumns(
  reader: CachedOrderReader,
  onRead?: (read: RowsSoFar) => void,
): Promise<OrderColumns> {
  const scanner = new OrderListScanner({ expectedBytes: reader.bytes });
  let receivedBytes = 0;
  let columns: OrderColumns;
  try {
    for await (const chunk of reader.chunks()) {
      receivedBytes += chunk.length;
      scanner.push(chunk);
      onRead?.({
        count: scanner.count,
        rowsSoFar: () => scanner.rowsSoFar(),
        receivedBytes,
        totalBytes: reader.bytes,
      });
    }
    columns = scanner.finish();
  } catch (error) {
    throw new DamagedCacheError(error instanceof Error ? error.message : String(error));
  }
  if (columns.count !== reader.count)
    throw new DamagedCacheError(`${columns.count} orders where the header says ${reader.count}`);
  return columns;
}
