import mammoth from 'mammoth';

// mammoth would inline every picture as a base64 data URI: megabytes of HTML for words we never read.
const dropImages = mammoth.images.imgElement(() => Promise.resolve({ src: '' }));

/**
 * A .docx rendered as semantic HTML by mammoth, with pictures dropped and links to outside files never followed:
 * an uploaded file must not read the server's disk. Throws mammoth's own error on a damaged file, which each caller
 * words for its screen. The caller passes the archive through its zip guard first.
 */
export async function docxToHtml(bytes: Uint8Array): Promise<string> {
  const result = await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    { convertImage: dropImages, externalFileAccess: false },
  );
  return result.value;
}
