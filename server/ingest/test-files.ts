// Small files built byte by byte for the ingest tests (formats with no generator among the dev dependencies).
// Test-only: never import from production code.
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

/** A ZIP archive (stored, no compression) holding the given text files. */
export function zipOf(files: Record<string, string>): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.from(content, 'utf8');
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** A valid PNG of the given size, all white. */
export function whitePng(width = 8, height = 8): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xff)]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]),
  );
}

/** The start of a Windows executable: "MZ", then a PE header where the DOS header points. */
export function windowsExecutable(): Uint8Array {
  const bytes = new Uint8Array(1024);
  bytes.set([0x4d, 0x5a]);
  bytes[0x3c] = 0x80;
  bytes.set([0x50, 0x45, 0, 0], 0x80);
  return bytes;
}

/** The start of a 64-bit Linux executable. */
export function linuxExecutable(): Uint8Array {
  const bytes = new Uint8Array(256);
  bytes.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
  return bytes;
}

/** What Office writes for a password-protected .docx/.xlsx: an OLE compound file with an EncryptedPackage stream. */
export function encryptedOfficeFile(): Uint8Array {
  const bytes = new Uint8Array(4096);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  bytes.set(Buffer.from('EncryptedPackage', 'utf16le'), 1024);
  return bytes;
}

/**
 * Renders HTML to a PNG screenshot with Debian's Chromium (as the e2e tests do), for OCR tests: text drawn by a
 * real browser is what a user's screenshot of a policy looks like.
 */
export async function renderPng(html: string, size: { width: number; height: number }): Promise<Uint8Array> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  try {
    const page = await browser.newPage({ viewport: size });
    await page.setContent(html);
    return new Uint8Array(await page.screenshot({ type: 'png' }));
  } finally {
    await browser.close();
  }
}
