import { Building2, FolderKanban, KeyRound, Lock, Palette, Users } from 'lucide-react';
import { BrandProfileForm } from '../../app/organization/brand-profile-form';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useMe } from '../../app/me/get-me';
import { useCan } from '../../app/me/use-can';
import { useTabParam } from '../../lib/use-tab-param';
import { AdminDashboardButton } from '../admin-dashboard/admin-dashboard-button';
import { useCurrentOrganization } from '../../app/organization/get-current-organization';
import { ApiTokensPanel } from './api-tokens/api-tokens-panel';
import { OrganizationForm } from './components/organization-form';
import { UserManagement } from './components/user-management';
import { WorkspaceSettings } from './components/workspace-settings';

const TABS = [
  { value: 'organization', label: 'Organization', icon: Building2 },
  { value: 'branding', label: 'Branding', icon: Palette },
  { value: 'users', label: 'User Management', icon: Users },
  { value: 'workspaces', label: 'Workspaces', icon: FolderKanban },
  { value: 'api-tokens', label: 'API Tokens', icon: KeyRound },
] as const;
type SettingsTab = (typeof TABS)[number]['value'];

/** Which tabs the caller may use, from the same policy table the server enforces. */
function useAllowedTabs(): SettingsTab[] {
  const canUpdateOrganization = useCan('organization:update');
  const canManageUsers = useCan('users:manage');
  const canManageWorkspaces = useCan('workspaces:manage');
  const canManageApiTokens = useCan('api_tokens:manage');
  const allowed: Record<SettingsTab, boolean> = {
    organization: canUpdateOrganization,
    branding: canUpdateOrganization,
    users: canManageUsers,
    workspaces: canManageWorkspaces,
    'api-tokens': canManageApiTokens,
  };
  return TABS.map((t) => t.value).filter((value) => allowed[value]);
}

/**
 * PRODUCT "Workspace Settings (/admin-settings)": Organization, Branding, User Management, and the organization's
 * Workspaces. Each tab shows only to roles the server would let through; the chosen tab lives in `?tab=` so a reload
 * or a shared link opens it again.
 */
export function AdminSettingsPage() {
  const me = useMe();
  const organization = useCurrentOrganization();
  const allowed = useAllowedTabs();
  const [tab, setTab] = useTabParam(allowed);
  const adminOnlyHidden = allowed.length > 0 && allowed.length < TABS.length;

  // The shell has loaded both already; this only narrows their types.
  if (!me.data || !organization.data) return <FullScreenSpinner />;

  return (
    <div className="flex flex-1 flex-col overflow-y-auto px-8 py-8">
      <div className="mx-auto w-full max-w-5xl">
        <header className="flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 className="text-2xl font-semibold tracking-tight">Workspace Settings</h1>
            <p className="mt-1 text-sm text-muted-foreground">
              Manage {organization.data.name}: its name and branding, who has access, and its workspaces.
            </p>
          </div>
          {/*
            Header actions. The Admin Dashboard modal (web/features/admin-dashboard/) is opened from here: its button
            goes in this container, beside any other page-level action.
          */}
          <div className="flex shrink-0 flex-wrap items-center gap-2" data-slot="settings-header-actions">
            <AdminDashboardButton />
          </div>
        </header>

        {tab === undefined ? (
          <EmptyState
            className="mt-8"
            icon={<Lock aria-hidden />}
            title="Workspace Settings are for admins"
            description="Your role does not include organization, user or workspace settings. Ask an admin if you need a change."
          />
        ) : (
          <>
            {adminOnlyHidden && (
              <Alert variant="info" className="mt-6">
                <Lock aria-hidden />
                <AlertDescription>
                  Organization, branding and user management are for admins. Ask an admin if you need a change there.
                </AlertDescription>
              </Alert>
            )}
            <Tabs value={tab} onValueChange={setTab} className="mt-6">
              <TabsList>
                {TABS.filter((t) => allowed.includes(t.value)).map(({ value, label, icon: Icon }) => (
                  <TabsTrigger key={value} value={value}>
                    <Icon className="size-4" aria-hidden />
                    {label}
                  </TabsTrigger>
                ))}
              </TabsList>
              <TabsContent value="organization">
                <OrganizationForm key={organization.data.id} organization={organization.data} />
              </TabsContent>
              <TabsContent value="branding">
                <Card>
                  <CardHeader>
                    <CardTitle>Brand Profile</CardTitle>
                    <CardDescription>
                      How answers speak for your organization: tone, wording and disclaimers.
                    </CardDescription>
                  </CardHeader>
                  <CardContent>
                    <BrandProfileForm />
                  </CardContent>
                </Card>
              </TabsContent>
              <TabsContent value="users">
                <UserManagement currentUserId={me.data.user.id} />
              </TabsContent>
              <TabsContent value="workspaces">
                <WorkspaceSettings />
              </TabsContent>
              <TabsContent value="api-tokens">
                <ApiTokensPanel />
              </TabsContent>
            </Tabs>
          </>
        )}
      </div>
    </div>
  );
}
