import { useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { CircleExclamationPoint, MailOpen, ShieldCheck } from 'lucide-react';
import { Alert, AlertDescription } from '../../components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui/card';
import { FullScreenSpinner, Spinner } from '../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { errorMessage } from '../../lib/api';
import { paths } from '../../paths';
import { useMe } from '../../app/me/get-me';
import { useInvitation } from './api/get-invitation';
import { MarketingBlurbs } from './components/marketing-blurbs';
import { SignInForm } from './components/sign-in-form';
import { SignUpForm } from './components/sign-up-form';
import { SsoSignIn } from './components/sso-sign-in';
import { ssoErrorSentence } from './sso-lookup';

type AuthTab = 'signin' | 'signup';

/**
 * PRODUCT "Login (/login)": sign in with a password or through the organization's SSO, sign up, and joining an
 * organization through `?invite=TOKEN`. An SSO sign-in that failed comes back as `?sso_error=CODE`.
 */
export function LoginPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const inviteToken = searchParams.get('invite')?.trim() || null;
  const me = useMe();
  const invitation = useInvitation(inviteToken);
  const [tab, setTab] = useState<AuthTab>(inviteToken ? 'signup' : 'signin');
  // Read once: the code leaves the address right away, so a reload does not repeat the message.
  const [formError, setFormError] = useState<string | null>(() => ssoErrorSentence(searchParams.get('sso_error')));
  const [ssoOpen, setSsoOpen] = useState(() => searchParams.has('sso_error'));

  useEffect(() => {
    if (!searchParams.has('sso_error')) return;
    setSearchParams(
      (params) => {
        params.delete('sso_error');
        return params;
      },
      { replace: true },
    );
  }, [searchParams, setSearchParams]);

  if (me.isPending) return <FullScreenSpinner label="Checking your session" />;
  if (me.data) return <Navigate to={paths.dashboard} replace />;

  const inviteError =
    tab === 'signup' && invitation.isError
      ? errorMessage(invitation.error, 'This invitation is invalid or has expired.')
      : null;
  const alertMessage = formError ?? inviteError;
  const validInvitation = inviteToken && invitation.data ? { token: inviteToken, preview: invitation.data } : null;
  // An invited person joins the inviting organization: offering to create one would send them the wrong way.
  const welcomeLine = validInvitation
    ? `Create your account to join ${validInvitation.preview.organizationName}, or sign in if you already have one.`
    : 'Sign in to your account or create a new organization.';

  return (
    <div className="grid min-h-screen bg-surface lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <main className="flex flex-col items-center justify-center gap-6 px-4 py-8 sm:px-6 sm:py-10">
        <div className="flex items-center gap-2.5 self-center lg:hidden">
          <span className="flex size-9 items-center justify-center rounded-lg bg-primary text-primary-foreground">
            <ShieldCheck className="size-5" aria-hidden />
          </span>
          <span className="text-lg font-semibold tracking-tight">Verity</span>
        </div>
        <Card className="w-full max-w-md">
          <CardHeader className="pb-4">
            {/* The page's one h1: the form is what this page is for, and it comes first. */}
            <h1 className="text-xl leading-tight font-semibold">Welcome</h1>
            <CardDescription>{welcomeLine}</CardDescription>
          </CardHeader>
          <CardContent>
            <Tabs
              value={tab}
              onValueChange={(value) => {
                setTab(value === 'signup' ? 'signup' : 'signin');
                setFormError(null);
              }}
            >
              <TabsList className="w-full">
                <TabsTrigger value="signin">Sign In</TabsTrigger>
                <TabsTrigger value="signup">Sign Up</TabsTrigger>
              </TabsList>

              {alertMessage && (
                <Alert variant="destructive" className="mt-4">
                  <CircleExclamationPoint aria-hidden />
                  <AlertDescription>{alertMessage}</AlertDescription>
                </Alert>
              )}

              <TabsContent value="signin" className="grid gap-4">
                <SignInForm onError={setFormError} onSsoRequired={() => setSsoOpen(true)} />
                <SsoSignIn
                  open={ssoOpen}
                  onOpen={() => setSsoOpen(true)}
                  onError={setFormError}
                  // Where a password sign-in lands too.
                  returnTo={paths.dashboard}
                />
              </TabsContent>
              <TabsContent value="signup">
                {inviteToken && invitation.isPending ? (
                  <div className="flex justify-center py-10">
                    <Spinner label="Loading invitation" />
                  </div>
                ) : (
                  <div className="grid gap-4">
                    {validInvitation && (
                      <Alert variant="info">
                        <MailOpen aria-hidden />
                        <AlertDescription>
                          {`You've been invited to join ${validInvitation.preview.organizationName} as ${validInvitation.preview.role}`}
                        </AlertDescription>
                      </Alert>
                    )}
                    <SignUpForm
                      key={validInvitation ? 'invited' : 'new-organization'}
                      invitation={validInvitation}
                      onError={setFormError}
                    />
                  </div>
                )}
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </main>
      {/* After the form in the document, so a phone shows sign-in first; beside it, on the left, on wide screens. */}
      <section
        aria-label="About Verity"
        className="flex flex-col justify-between gap-10 bg-gradient-to-br from-indigo-700 via-indigo-600 to-indigo-500 px-6 py-10 text-white sm:px-8 lg:order-first lg:px-14 lg:py-14"
      >
        <div className="hidden items-center gap-2.5 lg:flex">
          <span className="flex size-9 items-center justify-center rounded-lg bg-white/15 ring-1 ring-white/25">
            <ShieldCheck className="size-5" aria-hidden />
          </span>
          <span className="text-lg font-semibold tracking-tight">Verity</span>
        </div>
        <div className="max-w-md">
          <h2 className="text-3xl leading-tight font-semibold tracking-tight lg:text-4xl">
            Answer security questionnaires with confidence.
          </h2>
          <p className="mt-3 text-indigo-100">
            One source of truth for your security, compliance and technical answers.
          </p>
          <div className="mt-10">
            <MarketingBlurbs />
          </div>
        </div>
        <p className="text-xs text-indigo-200">Your organization&apos;s data is never shared with other tenants.</p>
      </section>
    </div>
  );
}
