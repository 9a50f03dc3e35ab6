// ZIP archives built byte by byte for the hostile-file corpus: entries whose compressed data was prepared by hand
// (a deflate stream that inflates to a gigabyte), whose directory lies about their size, or that sit behind other
// data (a polyglot). Test-only: never import from production code.
import zlib from 'node:zlib';

/** An entry's data already in the form it is stored, with what its directory records will say about it. */
export type RawEntry = {
  name: string;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  data: Uint8Array;
  crc: number;
  /** What the headers declare as the uncompressed size; a liar declares less than the data inflates to. */
  declaredSize: number;
};

/** An entry given as its content: stored when `store` is set, deflated otherwise. */
export type PlainEntry = { name: string; content: string | Uint8Array; store?: boolean };

/** A plain entry as a raw one, compressed the ordinary way. */
export function rawEntry(entry: PlainEntry): RawEntry {
  const content = typeof entry.content === 'string' ? Buffer.from(entry.content, 'utf8') : entry.content;
  const crc = zlib.crc32(content);
  if (entry.store) return { name: entry.name, method: 0, data: content, crc, declaredSize: content.length };
  return { name: entry.name, method: 8, data: zlib.deflateRawSync(content), crc, declaredSize: content.length };
}

/**
 * A ZIP archive of the entries, in order. `prefix` is written before the first entry (the offsets in the archive
 * count it, as a self-extracting archive's do), which is how a file can be a PDF and a ZIP at once.
 */
export function zipArchive(entries: readonly (RawEntry | PlainEntry)[], prefix?: Uint8Array): Uint8Array {
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  if (prefix) {
    parts.push(Buffer.from(prefix));
    offset = prefix.length;
  }
  for (const given of entries) {
    const entry = 'content' in given ? rawEntry(given) : given;
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength));
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const count = entries.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, 0xffff), 8);
  end.writeUInt16LE(Math.min(count, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...parts, directory, end]));
}

const FULL_FLUSH = { flush: zlib.constants.Z_FULL_FLUSH, finishFlush: zlib.constants.Z_FULL_FLUSH, level: 9 };
// An empty final stored block: ends a deflate stream made of fully flushed pieces.
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/**
 * A deflate stream that inflates to `head`, then `unit` repeated `count` times, then `tail`, built in milliseconds
 * whatever it inflates to: a fully flushed deflate piece does not refer to the bytes before it, so the compressed
 * unit can be repeated as it is. A 1 MB unit of XML compresses to ~3 kB, so a gigabyte costs ~3 MB.
 */
export function repeatedDeflate(
  head: string,
  unit: string,
  count: number,
  tail: string,
): { data: Uint8Array; crc: number; size: number } {
  const headBytes = Buffer.from(head, 'utf8');
  const unitBytes = Buffer.from(unit, 'utf8');
  const tailBytes = Buffer.from(tail, 'utf8');
  const compressedUnit = zlib.deflateRawSync(unitBytes, FULL_FLUSH);
  const pieces: Buffer[] = [zlib.deflateRawSync(headBytes, FULL_FLUSH)];
  let crc = zlib.crc32(headBytes);
  for (let index = 0; index < count; index += 1) {
    pieces.push(compressedUnit);
    crc = zlib.crc32(unitBytes, crc);
  }
  pieces.push(zlib.deflateRawSync(tailBytes, FULL_FLUSH), FINAL_BLOCK);
  crc = zlib.crc32(tailBytes, crc);
  return {
    data: new Uint8Array(Buffer.concat(pieces)),
    crc,
    size: headBytes.length + unitBytes.length * count + tailBytes.length,
  };
}

/** `piece` repeated to about `bytes` bytes (whole pieces only, so repeated XML stays well formed). */
export function repeatTo(piece: string, bytes: number): string {
  return piece.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(piece, 'utf8'))));
}
