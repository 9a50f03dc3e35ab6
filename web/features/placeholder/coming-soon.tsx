import { Construction } from 'lucide-react';

interface ComingSoonProps {
  /** The screen's name, shown as its heading. */
  title: string;
}

/** The body of a screen whose feature has not been built yet: its name and an honest note, nothing invented. */
export function ComingSoon({ title }: ComingSoonProps) {
  return (
    <div className="flex flex-1 flex-col overflow-y-auto px-8 py-8">
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <div className="mt-6 flex flex-col items-center justify-center rounded-xl border border-dashed bg-surface px-6 py-20 text-center">
        <span className="flex size-11 items-center justify-center rounded-full bg-accent text-primary">
          <Construction className="size-5" aria-hidden />
        </span>
        <p className="mt-4 text-sm text-muted-foreground">This screen is coming soon.</p>
      </div>
    </div>
  );
}
