import { describe, expect, it } from 'vitest';
import { POPULAR_TAG_COUNT, popularTags } from './get-popular-tags';

describe('popularTags', () => {
  it('puts the most used tags first, ties in alphabetical order', () => {
    const tags = [
      { tag: 'sso', count: 2 },
      { tag: 'encryption', count: 5 },
      { tag: 'audit', count: 2 },
      { tag: 'backup', count: 1 },
    ];
    expect(popularTags(tags).map((t) => t.tag)).toEqual(['encryption', 'audit', 'sso', 'backup']);
  });

  it('keeps only the first twelve, and leaves its input as it was', () => {
    const tags = Array.from({ length: 20 }, (_, i) => ({ tag: `tag-${String(i).padStart(2, '0')}`, count: i }));
    const copy = structuredClone(tags);
    const popular = popularTags(tags);
    expect(popular).toHaveLength(POPULAR_TAG_COUNT);
    expect(popular[0]).toEqual({ tag: 'tag-19', count: 19 });
    expect(popular.at(-1)).toEqual({ tag: 'tag-08', count: 8 });
    expect(tags).toEqual(copy);
  });
});
