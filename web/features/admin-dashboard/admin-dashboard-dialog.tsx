import { useState, type ComponentType } from 'react';
import { Tabs as TabsPrimitive } from 'radix-ui';
import { BarChart3, Building2, KeyRound, Palette, ScrollText, Users, type LucideIcon } from 'lucide-react';
import { useMe } from '../../app/me/get-me';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog';
import { cn } from '../../lib/cn';
import { useMediaQuery } from '../../lib/use-media-query';
import { AnalyticsTab } from './components/analytics-tab';
import { AuditLogTab } from './components/audit-log-tab';
import { BrandProfileTab } from './components/brand-profile-tab';
import { OrganizationTab } from './components/organization-tab';
import { SsoTab } from './components/sso-tab';
import { UsersTab } from './components/users-tab';
import { allowedSections, type SectionId } from './section-access';

const SECTIONS = [
  { id: 'users', label: 'Users & Roles', icon: Users, Content: UsersTab },
  { id: 'organization', label: 'Organization', icon: Building2, Content: OrganizationTab },
  { id: 'sso', label: 'SSO Settings', icon: KeyRound, Content: SsoTab },
  { id: 'brand', label: 'Brand Profile', icon: Palette, Content: BrandProfileTab },
  { id: 'analytics', label: 'Analytics', icon: BarChart3, Content: AnalyticsTab },
  { id: 'audit', label: 'Audit Log', icon: ScrollText, Content: AuditLogTab },
] as const satisfies ReadonlyArray<{ id: SectionId; label: string; icon: LucideIcon; Content: ComponentType }>;

/** The sections the caller may open, from the permissions `me` carries. */
function useAllowedSections() {
  const { data } = useMe();
  const allowed = allowedSections(data?.permissions ?? []);
  return SECTIONS.filter((s) => allowed.includes(s.id));
}

interface AdminDashboardDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * PRODUCT "Admin Dashboard modal": six sections in a left navigation. Each section mounts (and loads its data) only
 * while it is shown and the dialog is open (PRODUCT §10); the first one the caller may open (Users & Roles for an
 * admin) comes first each time the dialog opens. A manager sees Analytics alone, for its Accuracy part.
 */
export function AdminDashboardDialog({ open, onOpenChange }: AdminDashboardDialogProps) {
  const sections = useAllowedSections();
  const first = sections[0]?.id ?? 'users';
  const [chosen, setSection] = useState<SectionId | null>(null);
  const section = chosen && sections.some((s) => s.id === chosen) ? chosen : first;
  // The sections are a column beside the content from md up and a strip above it on a phone: arrow keys follow.
  const wide = useMediaQuery('(min-width: 768px)');
  const change = (next: boolean) => {
    if (!next) setSection(null);
    onOpenChange(next);
  };
  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent className="flex h-[min(52rem,90vh)] w-[calc(100vw-2rem)] max-w-6xl flex-col gap-0 overflow-hidden p-0">
        <DialogHeader className="border-b px-6 py-4">
          <DialogTitle>Admin Dashboard</DialogTitle>
          <DialogDescription>
            {sections.length === SECTIONS.length
              ? 'Users, organization settings, single sign-on, branding, usage and the audit trail.'
              : `What your role may see here: ${sections.map((s) => s.label).join(', ')}.`}
          </DialogDescription>
        </DialogHeader>
        <TabsPrimitive.Root
          value={section}
          onValueChange={(value) => {
            const next = sections.find((s) => s.id === value);
            if (next) setSection(next.id);
          }}
          orientation={wide ? 'vertical' : 'horizontal'}
          // On a phone the sections become a strip above the content, which then keeps the dialog's full width.
          className="flex min-h-0 flex-1 flex-col md:flex-row"
        >
          <TabsPrimitive.List
            aria-label="Admin sections"
            className="flex shrink-0 gap-0.5 overflow-x-auto border-b bg-surface p-2 md:w-52 md:flex-col md:overflow-x-visible md:overflow-y-auto md:border-r md:border-b-0 md:p-3"
          >
            {sections.map(({ id, label, icon: Icon }) => (
              <TabsPrimitive.Trigger
                key={id}
                value={id}
                className={cn(
                  'flex shrink-0 items-center gap-2.5 rounded-md px-3 py-2 text-left text-sm font-medium whitespace-nowrap text-muted-foreground transition-colors outline-none',
                  'hover:bg-muted hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
                  'data-[state=active]:bg-background data-[state=active]:text-foreground data-[state=active]:shadow-sm',
                )}
              >
                <Icon className="size-4 shrink-0" aria-hidden />
                {label}
              </TabsPrimitive.Trigger>
            ))}
          </TabsPrimitive.List>
          {sections.map(({ id, Content }) => (
            <TabsPrimitive.Content
              key={id}
              value={id}
              className="min-h-0 min-w-0 flex-1 overflow-y-auto p-4 outline-none md:p-6 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
            >
              <Content />
            </TabsPrimitive.Content>
          ))}
        </TabsPrimitive.Root>
      </DialogContent>
    </Dialog>
  );
}
