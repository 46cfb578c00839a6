import { Loader, MantineProvider, createTheme } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ApiError } from './api/client';
import { useLiveIncidents, useSession } from './api/hooks';
import { Shell } from './components/Shell';
import { IncidentPage } from './incidents/IncidentPage';
import { IncidentsPage } from './incidents/IncidentsPage';
import { SetupPage } from './setup/SetupPage';
import { DevInboxPage } from './pages/DevInboxPage';
import { LoginPage } from './pages/LoginPage';
import { SignupPage } from './pages/SignupPage';
import { AcceptInvitationPage, ResetPasswordPage, VerifyPage } from './pages/TokenPages';

const theme = createTheme({ primaryColor: 'red' });
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true } } });

/** Signed-in pages: a visitor without a session goes to the login page; the event stream runs while signed in. */
function SignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  useLiveIncidents(session.isSuccess);
  if (session.isPending) return <Loader aria-label="Loading" m="xl" />;
  if (session.error instanceof ApiError && session.error.status === 401) return <Navigate to="/login" replace />;
  if (session.error) return <p role="alert">{session.error.message}</p>;
  return <Shell session={session.data}>{children}</Shell>;
}

/** The dashboard: Mantine for widgets, TanStack Query for /api data, react-router for pages. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/signup" element={<SignupPage />} />
            <Route path="/dev/inbox" element={<DevInboxPage />} />
            <Route path="/verify" element={<VerifyPage />} />
            <Route path="/reset-password" element={<ResetPasswordPage />} />
            <Route path="/invitations/accept" element={<AcceptInvitationPage />} />
            <Route path="/incidents/:id" element={<SignedIn><IncidentPage /></SignedIn>} />
            <Route path="/setup" element={<SignedIn><SetupPage /></SignedIn>} />
            <Route path="*" element={<SignedIn><IncidentsPage /></SignedIn>} />
          </Routes>
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
}
