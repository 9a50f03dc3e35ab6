import { Unzlib } from 'fflate';

// Measures what each stream of a PDF decodes to, without keeping the output: the PDF counterpart of the zip guard.
// pdf.js decodes a page's content stream (and fonts, forms, object streams) whole into a buffer that grows by
// doubling, outside the JavaScript heap the extraction thread's limit applies to, so a 3 MB stream that inflates to
// a gigabyte costs gigabytes of process memory before anything can stop it.

/** Why measuring stopped early: a stream decodes to more than the limit. */
export type StreamVerdict = { ok: true } | { ok: false; decodedBytes: number };

const STREAM = Buffer.from('stream', 'latin1');
const END_STREAM = Buffer.from('endstream', 'latin1');
const OBJ = Buffer.from('obj', 'latin1');
// How far back from `stream` the stream's dictionary may start (dictionaries are short; this bounds the work).
const DICTIONARY_WINDOW = 16 * 1024;
const PUSH_CHUNK = 16 * 1024;
const INTERMEDIATE_BYTES = 16 * 1024 * 1024;

class LimitExceeded extends Error {}

/**
 * Decodes every stream of a PDF through its filters (Flate, LZW, RunLength, ASCIIHex, ASCII85: those that can
 * expand) and reports the first one that decodes to more than `limit` bytes. The output of the last filter is only
 * counted; an intermediate one (ASCII85 then Flate, or Flate twice) is kept up to `limit`. Streams are found as
 * pdf.js finds them when their length is wrong: the dictionary before `stream`, the data up to `endstream`.
 * Streams with filters that cannot expand much or are never decoded for text (images: DCT, JPX, JBIG2, CCITT) and
 * encrypted streams (the filter fails at once) end the measure of that stream; anything malformed is left to pdf.js.
 */
export function measurePdfStreams(bytes: Uint8Array, limit: number): StreamVerdict {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const endstreams = new NextOccurrence(buffer, END_STREAM);
  for (let at = buffer.indexOf(STREAM); at !== -1; at = buffer.indexOf(STREAM, at + STREAM.length)) {
    const dictionary = dictionaryBefore(buffer, at);
    if (dictionary === null) continue; // "endstream", or the word inside some text
    const filters = filtersOf(dictionary);
    if (filters.length === 0) continue; // raw data is as big as the file says
    const start = dataStart(buffer, at + STREAM.length);
    const end = dataEnd(buffer, start, dictionary, endstreams);
    const decoded = decodedSize(buffer.subarray(start, end), filters, limit);
    if (decoded > limit) return { ok: false, decodedBytes: decoded };
    at = Math.max(at, end - STREAM.length);
  }
  return { ok: true };
}

/** The dictionary text of the stream whose `stream` keyword is at `at`, or null when `at` is not one. */
function dictionaryBefore(buffer: Buffer, at: number): string | null {
  let before = at - 1;
  while (before >= 0 && isWhitespace(buffer[before])) before -= 1;
  if (before < 1 || buffer[before] !== 0x3e || buffer[before - 1] !== 0x3e) return null; // ">>"
  const from = Math.max(0, at - DICTIONARY_WINDOW);
  // Searched within the window only: an unbounded search back from each of a million fake streams is quadratic.
  const objAt = buffer.subarray(from, before).lastIndexOf(OBJ);
  return buffer.toString('latin1', objAt === -1 ? from : from + objAt, before + 1);
}

// pdf.js accepts the abbreviated names of inline images in any stream.
const FILTER_NAMES: Readonly<Record<string, Filter>> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  LZWDecode: 'lzw',
  LZW: 'lzw',
  RunLengthDecode: 'runlength',
  RL: 'runlength',
  ASCIIHexDecode: 'hex',
  AHx: 'hex',
  ASCII85Decode: 'a85',
  A85: 'a85',
};
type Filter = 'flate' | 'lzw' | 'runlength' | 'hex' | 'a85' | 'opaque';

function filtersOf(dictionary: string): Filter[] {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(dictionary);
  if (!match?.[1]) return [];
  const names = match[1].match(/\/[^\s/[\]<>()]+/g) ?? [];
  return names.map((name) => FILTER_NAMES[name.slice(1)] ?? 'opaque');
}

function dataStart(buffer: Buffer, afterKeyword: number): number {
  if (buffer[afterKeyword] === 0x0d) return buffer[afterKeyword + 1] === 0x0a ? afterKeyword + 2 : afterKeyword + 1;
  return buffer[afterKeyword] === 0x0a ? afterKeyword + 1 : afterKeyword;
}

/** Where the data ends: at /Length when `endstream` is there, as pdf.js does, else at the next `endstream`. */
function dataEnd(buffer: Buffer, start: number, dictionary: string, endstreams: NextOccurrence): number {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary)?.[1];
  if (length !== undefined) {
    const end = start + Number(length);
    let probe = end;
    while (probe < buffer.length && isWhitespace(buffer[probe])) probe += 1;
    if (end <= buffer.length && buffer.subarray(probe, probe + END_STREAM.length).equals(END_STREAM)) return end;
  }
  const found = endstreams.from(start);
  return found === -1 ? buffer.length : found;
}

/**
 * `buffer.indexOf(needle, from)` for non-decreasing `from`, remembering the last answer: many streams without an
 * `endstream` would otherwise each search to the end of the file.
 */
class NextOccurrence {
  #from = -1;
  #found = -1;

  constructor(
    readonly buffer: Buffer,
    readonly needle: Buffer,
  ) {}

  from(position: number): number {
    const stillValid = this.#from >= 0 && position >= this.#from && (this.#found === -1 || position <= this.#found);
    if (!stillValid) {
      this.#from = position;
      this.#found = this.buffer.indexOf(this.needle, position);
    }
    return this.#found;
  }
}

function isWhitespace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
}

/** Bytes the data decodes to through the filters, or just over `limit` once it is clear it exceeds it. */
function decodedSize(data: Uint8Array, filters: readonly Filter[], limit: number): number {
  let input = data;
  for (let index = 0; index < filters.length; index += 1) {
    const filter = filters[index];
    if (filter === undefined || filter === 'opaque') return input.length;
    const last = index === filters.length - 1 || filters[index + 1] === 'opaque';
    // An intermediate stage is kept in memory, so it gets a tighter bound: in real files it is ASCII85 or hex text
    // turning into compressed data (smaller than its input), never a stream that expands (Flate inside Flate).
    const stageLimit = last ? limit : Math.min(limit, Math.max(2 * input.length, INTERMEDIATE_BYTES));
    const kept: Uint8Array[] = [];
    let produced = 0;
    const emit = (chunk: Uint8Array) => {
      produced += chunk.length;
      if (produced > stageLimit) throw new LimitExceeded();
      if (!last) kept.push(chunk.slice());
    };
    try {
      DECODERS[filter](input, emit);
    } catch (error) {
      if (error instanceof LimitExceeded) return last ? produced : limit + 1;
      // Damaged or encrypted data: pdf.js stops at the same place, so what came out so far is what it would hold.
    }
    if (last) return produced;
    input = Buffer.concat(kept);
  }
  return input.length;
}

type Decoder = (input: Uint8Array, emit: (chunk: Uint8Array) => void) => void;

const DECODERS: Readonly<Record<Exclude<Filter, 'opaque'>, Decoder>> = {
  flate(input, emit) {
    const inflater = new Unzlib((chunk) => emit(chunk));
    for (let offset = 0; offset < input.length; offset += PUSH_CHUNK) {
      const stop = Math.min(input.length, offset + PUSH_CHUNK);
      inflater.push(input.subarray(offset, stop), stop === input.length);
    }
  },
  runlength(input, emit) {
    const out = new Batcher(emit);
    for (let at = 0; at < input.length;) {
      const length = input[at] ?? 128;
      if (length === 128) break; // end of data
      if (length < 128) {
        out.bytes(input.subarray(at + 1, at + 2 + length));
        at += 2 + length;
      } else {
        out.repeat(input[at + 1] ?? 0, 257 - length);
        at += 2;
      }
    }
    out.flush();
  },
  hex(input, emit) {
    const out = new Batcher(emit);
    let high = -1;
    for (const byte of input) {
      if (byte === 0x3e) break; // ">": end of data
      const digit = hexDigit(byte);
      if (digit < 0) continue;
      if (high < 0) high = digit;
      else {
        out.byte((high << 4) | digit);
        high = -1;
      }
    }
    if (high >= 0) out.byte(high << 4);
    out.flush();
  },
  a85(input, emit) {
    const out = new Batcher(emit);
    let group = 0;
    let count = 0;
    for (const byte of input) {
      if (byte === 0x7e) break; // "~>": end of data
      if (byte === 0x7a && count === 0) {
        out.repeat(0, 4); // "z": four zero bytes
        continue;
      }
      if (byte < 0x21 || byte > 0x75) continue;
      group = group * 85 + (byte - 0x21);
      count += 1;
      if (count === 5) {
        out.word(group >>> 0, 4);
        group = 0;
        count = 0;
      }
    }
    if (count > 1) {
      for (let pad = count; pad < 5; pad += 1) group = group * 85 + 84;
      out.word(group >>> 0, count - 1);
    }
    out.flush();
  },
  lzw(input, emit) {
    // PDF's LZW: codes of 9 to 12 bits, 256 clears the table, 257 ends the data, "early change" (the code width grows
    // one code early). Each table entry is its prefix entry plus one byte, written out back to front.
    const prefix = new Int32Array(4096);
    const suffix = new Uint8Array(4096);
    const lengths = new Uint32Array(4096);
    const firstByte = new Uint8Array(4096);
    for (let code = 0; code < 256; code += 1) {
      suffix[code] = code;
      firstByte[code] = code;
      lengths[code] = 1;
    }
    const out = new Batcher(emit);
    const scratch = new Uint8Array(4096);
    let next = 258;
    let bits = 9;
    let previous = -1;
    let buffer = 0;
    let buffered = 0;
    const write = (code: number) => {
      const length = lengths[code] ?? 0;
      for (let at = length - 1, walk = code; at >= 0; at -= 1) {
        scratch[at] = suffix[walk] ?? 0;
        walk = prefix[walk] ?? 0;
      }
      out.bytes(scratch.subarray(0, length));
    };
    decode: for (const byte of input) {
      buffer = ((buffer << 8) | byte) & 0xffffff;
      buffered += 8;
      while (buffered >= bits) {
        const code = (buffer >>> (buffered - bits)) & ((1 << bits) - 1);
        buffered -= bits;
        if (code === 256) {
          next = 258;
          bits = 9;
          previous = -1;
          continue;
        }
        if (code === 257) break decode;
        const known = code < 256 || (code >= 258 && code < next);
        if (!known && !(code === next && previous >= 0)) break decode; // a code that cannot occur: damaged data
        if (previous >= 0 && next < 4096) {
          // The new entry is the previous string plus the first byte of this one (of itself, when it is the new one).
          prefix[next] = previous;
          suffix[next] = known ? (firstByte[code] ?? 0) : (firstByte[previous] ?? 0);
          firstByte[next] = firstByte[previous] ?? 0;
          lengths[next] = (lengths[previous] ?? 0) + 1;
          next += 1;
        }
        write(code);
        previous = code;
        if (next + 1 >= 1 << bits && bits < 12) bits += 1;
      }
    }
    out.flush();
  },
};

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  return -1;
}

/** Collects decoded bytes into 64 kB chunks for `emit`. */
class Batcher {
  readonly #emit: (chunk: Uint8Array) => void;
  #chunk = new Uint8Array(64 * 1024);
  #used = 0;

  constructor(emit: (chunk: Uint8Array) => void) {
    this.#emit = emit;
  }

  byte(value: number): void {
    if (this.#used === this.#chunk.length) this.flush();
    this.#chunk[this.#used] = value;
    this.#used += 1;
  }

  bytes(values: Uint8Array): void {
    let from = 0;
    while (from < values.length) {
      if (this.#used === this.#chunk.length) this.flush();
      const count = Math.min(values.length - from, this.#chunk.length - this.#used);
      this.#chunk.set(values.subarray(from, from + count), this.#used);
      this.#used += count;
      from += count;
    }
  }

  repeat(value: number, times: number): void {
    let left = times;
    while (left > 0) {
      if (this.#used === this.#chunk.length) this.flush();
      const count = Math.min(left, this.#chunk.length - this.#used);
      this.#chunk.fill(value, this.#used, this.#used + count);
      this.#used += count;
      left -= count;
    }
  }

  word(value: number, bytes: number): void {
    for (let shift = 24; shift > 24 - bytes * 8; shift -= 8) this.byte((value >>> shift) & 0xff);
  }

  flush(): void {
    if (this.#used === 0) return;
    this.#emit(this.#chunk.subarray(0, this.#used));
    this.#chunk = new Uint8Array(64 * 1024);
    this.#used = 0;
  }
}
