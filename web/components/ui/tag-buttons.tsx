import { cn } from '../../lib/cn';

interface TagButtonsProps {
  tags: readonly string[];
  onTagClick: (tag: string) => void;
  /** The tooltip of one tag's button, saying what a click shows. */
  titleOf: (tag: string) => string;
  className?: string;
}

/** A card's tags as a list of buttons that filter by the tag; nothing when there are none. */
export function TagButtons({ tags, onTagClick, titleOf, className }: TagButtonsProps) {
  if (tags.length === 0) return null;
  return (
    <ul className={cn('flex flex-wrap gap-1.5', className)} aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <button
            type="button"
            className="rounded-full border bg-surface px-2 py-0.5 text-xs text-slate-700 outline-none hover:border-indigo-300 hover:text-primary focus-visible:ring-2 focus-visible:ring-ring"
            onClick={() => onTagClick(tag)}
            title={titleOf(tag)}
          >
            {tag}
          </button>
        </li>
      ))}
    </ul>
  );
}
