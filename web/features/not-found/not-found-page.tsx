import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { buttonVariants } from '../../components/ui/button';
import { paths } from '../../paths';

/** Any unknown path. Public, so a signed-out visitor sees it too. */
export function NotFoundPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-surface px-6 text-center">
      <h1 className="text-2xl font-semibold tracking-tight">404 Page Not Found</h1>
      <p className="max-w-sm text-sm text-muted-foreground">
        The page you are looking for does not exist or has moved.
      </p>
      <Link to={paths.dashboard} className={buttonVariants({ variant: 'primary', className: 'mt-2' })}>
        <ArrowLeft aria-hidden />
        Back to dashboard
      </Link>
    </main>
  );
}
