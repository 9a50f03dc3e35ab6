/**
 * The few pieces of the POSIX ustar format a backup needs: regular files and directories, written as a stream and
 * read back as one. No tar package is a dependency of Verity, and this subset is small enough to own and test;
 * the result is a plain `.tar.gz` that `tar tzf` lists.
 */
const BLOCK = 512;

export type TarHeader = { name: string; type: 'file' | 'dir'; size: number; mode: number; mtime: Date };

/** The archive is not a tar stream Verity wrote, or it is damaged; `truncated` when it simply ends too early. */
export class ArchiveFormatError extends Error {
  constructor(
    message: string,
    readonly truncated = false,
  ) {
    super(message);
    this.name = 'ArchiveFormatError';
  }
}

// ustar stores sizes as 11 octal digits; a PostgreSQL segment file is 1 GiB and an object at most 50 MB.
const MAX_SIZE = 8 ** 11 - 1;

/** The header block of one member. Names are ASCII paths of at most 255 bytes (ustar's name + prefix). */
export function tarHeader(h: TarHeader): Buffer {
  if (!/^[\x21-\x7e]+$/.test(h.name)) throw new Error(`cannot archive a file named ${JSON.stringify(h.name)}`);
  if (h.size > MAX_SIZE) throw new Error(`${h.name} is larger than a tar member can be (8 GiB)`);
  const name = h.type === 'dir' && !h.name.endsWith('/') ? `${h.name}/` : h.name;
  const [prefix, base] = splitName(name);
  const buf = Buffer.alloc(BLOCK);
  buf.write(base, 0, 100, 'latin1');
  writeOctal(buf, 100, 8, h.mode & 0o7777);
  writeOctal(buf, 108, 8, 0);
  writeOctal(buf, 116, 8, 0);
  writeOctal(buf, 124, 12, h.type === 'file' ? h.size : 0);
  writeOctal(buf, 136, 12, Math.max(0, Math.floor(h.mtime.getTime() / 1000)));
  buf.write(h.type === 'file' ? '0' : '5', 156, 'latin1');
  buf.write('ustar\u000000', 257, 'latin1');
  buf.write(prefix, 345, 155, 'latin1');
  buf.write(`${checksum(buf).toString(8).padStart(6, '0')}\u0000 `, 148, 'latin1');
  return buf;
}

/** The zero bytes that fill a member's data up to the next block. */
export function tarPadding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The two zero blocks that end an archive. */
export function tarEnd(): Buffer {
  return Buffer.alloc(2 * BLOCK);
}

/**
 * Calls `onMember` for each member in order with its data as a stream of chunks. Data `onMember` leaves unread is
 * skipped. Throws ArchiveFormatError for a damaged header, a member type Verity never writes, or an early end.
 * Reads the source to its end, so a gunzip stream gets to check its trailing CRC.
 */
export async function readTar(
  source: AsyncIterable<Buffer>,
  onMember: (header: TarHeader, data: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const reader = new ByteReader(source);
  for (;;) {
    const block = await reader.read(BLOCK);
    if (!block) throw new ArchiveFormatError('the archive ends before its end marker', true);
    if (block.every((b) => b === 0)) break;
    const header = parseHeader(block);
    let remaining = header.size;
    // Not a generator: breaking out of a for-await must not lose track of the bytes still to skip.
    const data: AsyncIterable<Buffer> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          if (remaining === 0) return { done: true, value: undefined };
          const chunk = await reader.readUpTo(remaining);
          remaining -= chunk.length;
          return { done: false, value: chunk };
        },
      }),
    };
    await onMember(header, data);
    while (remaining > 0) remaining -= (await reader.readUpTo(remaining)).length;
    const pad = tarPadding(header.size).length;
    if (pad > 0 && !(await reader.read(pad))) throw new ArchiveFormatError('the archive ends inside a member', true);
  }
  // What follows the end marker must be zeros (the second end block and the writer's fill): anything else is damage.
  for (let rest = await reader.next(); rest; rest = await reader.next()) {
    if (!rest.every((b) => b === 0)) throw new ArchiveFormatError('there are data after the archive end marker');
  }
}

function parseHeader(block: Buffer): TarHeader {
  const stored = readOctal(block, 148, 8);
  if (stored !== checksum(block)) throw new ArchiveFormatError('a member header is damaged (checksum mismatch)');
  if (block.toString('latin1', 257, 262) !== 'ustar') throw new ArchiveFormatError('a member header is not ustar');
  const base = cString(block, 0, 100);
  const prefix = cString(block, 345, 155);
  const name = prefix ? `${prefix}/${base}` : base;
  const flag = block.toString('latin1', 156, 157);
  const type = flag === '0' || flag === '\u0000' ? 'file' : flag === '5' ? 'dir' : null;
  if (!type) throw new ArchiveFormatError(`member ${name} has a type Verity never writes (${JSON.stringify(flag)})`);
  return {
    name: type === 'dir' ? name.replace(/\/+$/, '') : name,
    type,
    size: type === 'file' ? readOctal(block, 124, 12) : 0,
    mode: readOctal(block, 100, 8),
    mtime: new Date(readOctal(block, 136, 12) * 1000),
  };
}

function splitName(name: string): [string, string] {
  if (name.length <= 100) return ['', name];
  // ustar: the part after the last usable slash goes in `name`, the rest in `prefix`.
  for (let i = name.length - 1; i > 0; i--) {
    if (name[i] === '/' && i <= 155 && name.length - i - 1 <= 100 && name.length - i - 1 > 0) {
      return [name.slice(0, i), name.slice(i + 1)];
    }
  }
  throw new Error(`${name} is too long a path for a tar member`);
}

function checksum(block: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (block[i] ?? 0);
  return sum;
}

function writeOctal(buf: Buffer, offset: number, width: number, value: number) {
  buf.write(`${value.toString(8).padStart(width - 1, '0')}\u0000`, offset, width, 'latin1');
}

function readOctal(buf: Buffer, offset: number, width: number): number {
  const text = cString(buf, offset, width).trim();
  if (!/^[0-7]+$/.test(text)) throw new ArchiveFormatError('a member header holds a malformed number');
  return parseInt(text, 8);
}

function cString(buf: Buffer, offset: number, width: number): string {
  const field = buf.subarray(offset, offset + width);
  const end = field.indexOf(0);
  return field.toString('latin1', 0, end === -1 ? width : end);
}

/** Exact reads over a stream of chunks of any size. */
class ByteReader {
  private readonly it: AsyncIterator<Buffer>;
  private pending: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(source: AsyncIterable<Buffer>) {
    this.it = source[Symbol.asyncIterator]();
  }

  /** Exactly n bytes; null when the stream ends first. */
  async read(n: number): Promise<Buffer | null> {
    const parts: Buffer[] = [];
    let got = 0;
    while (got < n) {
      if (this.pending.length === 0 && !(await this.pull())) return null;
      const take = this.pending.subarray(0, n - got);
      this.pending = this.pending.subarray(take.length);
      parts.push(take);
      got += take.length;
    }
    return parts.length === 1 && parts[0] ? parts[0] : Buffer.concat(parts);
  }

  /** Between 1 and n bytes, as they arrive; throws (truncated) when the stream has ended. */
  async readUpTo(n: number): Promise<Buffer> {
    if (this.pending.length === 0 && !(await this.pull())) {
      throw new ArchiveFormatError('the archive ends inside a member', true);
    }
    const take = this.pending.subarray(0, n);
    this.pending = this.pending.subarray(take.length);
    return take;
  }

  /** Whatever comes next, of any size; null at the end of the stream. */
  async next(): Promise<Buffer | null> {
    if (this.pending.length === 0 && !(await this.pull())) return null;
    const chunk = this.pending;
    this.pending = Buffer.alloc(0);
    return chunk;
  }

  private async pull(): Promise<boolean> {
    while (!this.ended) {
      const r = await this.it.next();
      if (r.done) this.ended = true;
      else if (r.value.length > 0) {
        this.pending = r.value;
        return true;
      }
    }
    return false;
  }
}
