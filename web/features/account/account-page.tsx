import { KeyRound, ShieldCheck, UserRound } from 'lucide-react';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { useMe } from '../../app/me/get-me';
import { useTabParam } from '../../lib/use-tab-param';
import { ChangePasswordForm } from './components/change-password-form';
import { PasswordResetForm } from './components/password-reset-form';
import { ProfileForm } from './components/profile-form';
import { SessionsCard } from './components/sessions-card';

const TABS = [
  { value: 'profile', label: 'Profile', icon: UserRound },
  { value: 'security', label: 'Security', icon: ShieldCheck },
  { value: 'password-reset', label: 'Password Reset', icon: KeyRound },
] as const;

/**
 * PRODUCT "Account Settings (/account)": Profile, Security (password change and sessions) and Password Reset, for every
 * signed-in user. The chosen tab lives in `?tab=`, so a reload opens it again.
 */
export function AccountPage() {
  const me = useMe();
  const [tab = 'profile', setTab] = useTabParam(TABS.map((t) => t.value));

  // The auth guard has loaded the user already; this only narrows the type.
  if (!me.data) return <FullScreenSpinner />;
  const { user } = me.data;

  return (
    <div className="flex flex-1 flex-col overflow-y-auto px-8 py-8">
      <div className="mx-auto w-full max-w-3xl">
        <h1 className="text-2xl font-semibold tracking-tight">Account Settings</h1>
        <p className="mt-1 text-sm text-muted-foreground">Your profile, password and where you are signed in.</p>
        <Tabs value={tab} onValueChange={setTab} className="mt-6">
          <TabsList>
            {TABS.map(({ value, label, icon: Icon }) => (
              <TabsTrigger key={value} value={value}>
                <Icon className="size-4" aria-hidden />
                {label}
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value="profile">
            <ProfileForm key={user.id} user={user} />
          </TabsContent>
          <TabsContent value="security" className="grid gap-6">
            <ChangePasswordForm />
            <SessionsCard />
          </TabsContent>
          <TabsContent value="password-reset">
            <PasswordResetForm email={user.email} />
          </TabsContent>
        </Tabs>
      </div>
    </div>
  );
}
