import { Building, FileStack, Sparkles, type LucideIcon } from 'lucide-react';

const BLURBS: ReadonlyArray<{ title: string; text: string; icon: LucideIcon }> = [
  {
    title: 'AI-Powered',
    text: 'Answers come from your approved library and documents, each with its sources and a confidence score.',
    icon: Sparkles,
  },
  {
    title: 'Multi-Tenant',
    text: "Each organization's knowledge stays isolated, with workspaces for every team or product line.",
    icon: Building,
  },
  {
    title: 'Document Processing',
    text: 'Upload policies and reports once; their text becomes searchable evidence for every answer.',
    icon: FileStack,
  },
];

export function MarketingBlurbs() {
  return (
    <ul className="grid gap-6">
      {BLURBS.map(({ title, text, icon: Icon }) => (
        <li key={title} className="flex gap-4">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/10 ring-1 ring-white/20">
            <Icon className="size-5" aria-hidden />
          </span>
          <div>
            <h3 className="font-semibold">{title}</h3>
            <p className="mt-1 text-sm leading-relaxed text-indigo-100">{text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
