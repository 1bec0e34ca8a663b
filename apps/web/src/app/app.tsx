import * as React from 'react';
import { Redirect, useLocation } from 'wouter';

import { FullPageSpinner } from '@/components/full-page-spinner';
import { Spinner } from '@/components/ui/spinner';
import { redirectToLogin } from '@/lib/unauthorized';
import { useAuth } from '@/features/auth/api/use-auth';
import NotFoundPage from '@/pages/not-found';
import { Providers } from './providers';
import { resolveRoute } from './routes';

// Only signed-in users see the shell (top bar, menus, notifications) and the forced password-change
// dialog: loaded on demand, they stay out of the first page a visitor downloads.
const AppShell = React.lazy(() => import('./shell/app-shell').then((m) => ({ default: m.AppShell })));
const ForcedPasswordChangeDialog = React.lazy(() =>
  import('@/features/auth/components/forced-password-change-dialog').then((m) => ({
    default: m.ForcedPasswordChangeDialog,
  })),
);

/** Root component: providers around the router. */
export function App() {
  return (
    <Providers>
      <Router />
    </Providers>
  );
}

/** Picks the screen for the current path and session state. */
function Router() {
  const { user, isLoading } = useAuth();
  const [location] = useLocation();

  if (isLoading) return <FullPageSpinner label="Loading your session" />;

  const resolution = resolveRoute(location, user !== null);

  if (!user) {
    switch (resolution.kind) {
      case 'page': {
        const Page = resolution.route.component;
        return (
          <React.Suspense fallback={<FullPageSpinner />}>
            <Page />
          </React.Suspense>
        );
      }
      case 'unauthorized':
        return <UnauthorizedRedirect />;
      default:
        return <NotFoundPage standalone />;
    }
  }

  let content: React.ReactNode;
  let bare = false;
  switch (resolution.kind) {
    case 'page': {
      const Page = resolution.route.component;
      content = <Page />;
      bare = resolution.route.layout === 'bare';
      break;
    }
    case 'redirect-home':
      return <Redirect to="/" replace />;
    default:
      content = <NotFoundPage />;
  }

  return (
    <>
      <React.Suspense fallback={<FullPageSpinner />}>
        {bare ? (
          content
        ) : (
          <AppShell user={user}>
            <React.Suspense fallback={<PageSpinner />}>{content}</React.Suspense>
          </AppShell>
        )}
      </React.Suspense>
      {user.passwordChangeRequired && (
        <React.Suspense fallback={null}>
          <ForcedPasswordChangeDialog open />
        </React.Suspense>
      )}
    </>
  );
}

/** Placeholder in the main area while a page's code loads. */
function PageSpinner() {
  return (
    <div className="flex justify-center py-24">
      <Spinner className="text-muted-foreground size-6" />
    </div>
  );
}

/** A visitor on a signed-in path: the 'Unauthorized' toast, then /api/login after 500 ms. */
function UnauthorizedRedirect() {
  React.useEffect(() => {
    redirectToLogin();
  }, []);
  return <FullPageSpinner label="Redirecting to login" />;
}
