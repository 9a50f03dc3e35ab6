import type { ReactNode } from 'react';

/** One titled box of the Analytics section: a chart, a table or a list. */
export function Panel({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="min-w-0 rounded-xl border bg-background p-4">
      <h4 className="text-sm font-semibold">{title}</h4>
      {description && <p className="mt-0.5 text-xs text-muted-foreground">{description}</p>}
      <div className="mt-4">{children}</div>
    </section>
  );
}
