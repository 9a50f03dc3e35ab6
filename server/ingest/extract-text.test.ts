import { describe, expect, it } from 'vitest';
import { extractHtml, htmlToBlocks } from './extract-html';
import { extractMarkdown, extractPlainText, markdownToBlocks } from './extract-text';
import { extractDocument } from './pipeline';

const bytesOf = (text: string) => new TextEncoder().encode(text);

describe('plain text', () => {
  it('is one block without page or section, BOM removed', () => {
    expect(extractPlainText(bytesOf('\ufeffWe rotate keys yearly.'))).toEqual({
      blocks: [{ text: 'We rotate keys yearly.', page: null, section: null }],
      pageCount: null,
    });
  });
});

describe('markdown', () => {
  it('starts a section at each heading and keeps the heading as the first line', () => {
    const markdown = [
      '---',
      'title: front matter is metadata',
      '---',
      'Intro line.',
      '',
      '# Access Control',
      '',
      'Access needs **MFA**, see [the standard](https://example.com/std).',
      '',
      '## Passwords ##',
      '- At least 12 characters',
      '- Never `reused`',
      '',
      'Backups',
      '=======',
      'Daily.',
    ].join('\n');
    expect(markdownToBlocks(markdown)).toEqual([
      { text: 'Intro line.\n', page: null, section: null },
      { text: 'Access Control\n\n\nAccess needs MFA, see the standard.\n', page: null, section: 'Access Control' },
      { text: 'Passwords\n\n- At least 12 characters\n- Never reused\n', page: null, section: 'Passwords' },
      { text: 'Backups\n\nDaily.', page: null, section: 'Backups' },
    ]);
  });

  it('ignores # lines inside fenced code', () => {
    const blocks = markdownToBlocks('# Setup\n```bash\n# not a heading\necho hi\n```\nDone.');
    expect(blocks.map((block) => block.section)).toEqual(['Setup']);
    expect(blocks[0]?.text).toContain('# not a heading');
  });

  it('goes through the pipeline with sections on the chunks', async () => {
    const result = await extractDocument(bytesOf('# One\nFirst.\n# Two\nSecond.'), 'notes.md');
    expect(result.kind).toBe('markdown');
    expect(result.chunks.map(({ section, text }) => ({ section, text }))).toEqual([
      { section: 'One', text: 'One\nFirst.' },
      { section: 'Two', text: 'Two\nSecond.' },
    ]);
    expect(extractMarkdown(bytesOf('plain')).blocks).toHaveLength(1);
  });
});

describe('html', () => {
  const page = `<!doctype html>
<html>
<head><title>Trust Center</title><style>body { color: red }</style><script>var secret = "tracking";</script></head>
<body>
  <noscript>Enable JavaScript</noscript>
  <template><p>Template text</p></template>
  <p>Welcome to the <b>trust</b>&nbsp;center &amp; FAQ.</p>
  <h1>Data Protection</h1>
  <p>Data is encrypted&mdash;always.<br>Keys rotate yearly.</p>
  <div hidden>Hidden text</div>
  <script>document.write("more script")</script>
  <h2>Sub<em>processors</em></h2>
  <ul><li>Cloud host</li><li>Email provider</li></ul>
  <table><tr><td>RTO</td><td>4 hours</td></tr></table>
</body>
</html>`;

  it('keeps visible text only, decodes entities, and makes headings sections', () => {
    const blocks = htmlToBlocks(page);
    const all = blocks.map((block) => block.text).join(' ');
    for (const hidden of [
      'color: red',
      'tracking',
      'more script',
      'Enable JavaScript',
      'Template text',
      'Hidden text',
      'Trust Center',
    ])
      expect(all).not.toContain(hidden);
    expect(blocks.map((block) => block.section)).toEqual([null, 'Data Protection', 'Subprocessors']);
    const squash = (text: string | undefined) => text?.replace(/\s+/g, ' ').trim();
    expect(squash(blocks[0]?.text)).toBe('Welcome to the trust center & FAQ.');
    expect(squash(blocks[1]?.text)).toBe('Data Protection Data is encrypted—always. Keys rotate yearly.');
    expect(squash(blocks[2]?.text)).toBe('Subprocessors Cloud host Email provider RTO 4 hours');
  });

  it('separates block elements into paragraphs and line breaks into lines', () => {
    const [block] = htmlToBlocks('<p>One</p><p>Two<br>Three</p>');
    expect(
      block?.text
        .trim()
        .split(/\n\n+/)
        .map((part) => part.trim()),
    ).toEqual(['One', 'Two\nThree']);
  });

  it('goes through the pipeline without script or style text', async () => {
    const result = await extractDocument(bytesOf(page), 'trust.html');
    const text = result.chunks.map((chunk) => chunk.text).join('\n');
    expect(text).not.toMatch(/tracking|color: red|more script/);
    expect(text).toContain('Keys rotate yearly.');
    expect(extractHtml(bytesOf('<p>x</p>')).pageCount).toBeNull();
  });
});
