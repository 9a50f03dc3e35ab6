import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseDataFile } from './validate';

const File = z.array(
  z.object({ section: z.string(), topics: z.array(z.object({ id: z.string(), phrases: z.array(z.string().min(1)) })) }),
);

describe('parseDataFile', () => {
  it('returns the parsed value of a valid file', () => {
    const value = [{ section: 'Identity', topics: [{ id: 'mfa', phrases: ['mfa'] }] }];
    expect(parseDataFile('data/x.json', File, value)).toEqual(value);
  });

  it('names the file, the entry and the place of what is wrong', () => {
    const value = [
      { section: 'Identity', topics: [{ id: 'sso', phrases: ['sso'] }] },
      {
        section: 'Crypto',
        topics: [
          { id: 'ok', phrases: ['a'] },
          { id: 'atrest', phrases: ['at rest', ''] },
        ],
      },
    ];
    expect(() => parseDataFile('data/x.json', File, value)).toThrow(
      /^data\/x\.json is invalid: entry "atrest" at 1\.topics\.1\.phrases\.1: /,
    );
  });

  it('says where a wrong shape is even when no entry can be named', () => {
    expect(() => parseDataFile('data/x.json', File, { section: 'Identity' })).toThrow(
      /^data\/x\.json is invalid: at \(root\): /,
    );
  });
});
