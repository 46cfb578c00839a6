import { Loader, MantineProvider, createTheme } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { ApiError, OFFLINE } from './api/client';
import { useLiveIncidents, useSession } from './api/hooks';
import { OfflinePage } from './components/OfflinePage';
import { Shell } from './components/Shell';
import { IncidentPage } from './incidents/IncidentPage';
import { IncidentsPage } from './incidents/IncidentsPage';
import { ReadinessPage } from './readiness/ReadinessPage';
import { DrillsPage } from './drills/DrillsPage';
import { DevInboxPage } from './pages/DevInboxPage';
import { LoginPage } from './pages/LoginPage';
import { SignupPage } from './pages/SignupPage';
import { AcceptInvitationPage, ResetPasswordPage, VerifyPage } from './pages/TokenPages';

// The admin pages load on first visit, so the incident list a responder opens at 3 a.m. does
// not wait for editors and charts it does not show.
const page = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) => lazy(async () => ({ default: (await load())[name] }));
const SetupPage = page(() => import('./setup/SetupPage'), 'SetupPage');
const ImportPage = page(() => import('./settings/ImportPage'), 'ImportPage');
const SsoPage = page(() => import('./settings/SsoPage'), 'SsoPage');
const ProfilePage = page(() => import('./paging/ProfilePage'), 'ProfilePage');
const PoliciesPage = page(() => import('./paging/PoliciesPage'), 'PoliciesPage');
const SchedulesPage = page(() => import('./schedules/SchedulesPage'), 'SchedulesPage');
const SchedulePage = page(() => import('./schedules/SchedulePage'), 'SchedulePage');
const OnCallPage = page(() => import('./schedules/OnCallPage'), 'OnCallPage');
const MembersPage = page(() => import('./admin/MembersPage'), 'MembersPage');
const CredentialsPage = page(() => import('./admin/CredentialsPage'), 'CredentialsPage');
const SecurityPage = page(() => import('./admin/SecurityPage'), 'SecurityPage');
const MonitoringPage = page(() => import('./monitoring/MonitoringPage'), 'MonitoringPage');
const ReportsPage = page(() => import('./reports/ReportsPage'), 'ReportsPage');
const NotificationsPage = page(() => import('./notifications/NotificationsPage'), 'NotificationsPage');
const OutgoingWebhooksPage = page(() => import('./integrations/OutgoingWebhooksPage'), 'OutgoingWebhooksPage');
const ServicesPage = page(() => import('./services/ServicesPage'), 'ServicesPage');
const ServicePage = page(() => import('./services/ServicePage'), 'ServicePage');
const IntegrationsPage = page(() => import('./integrations/IntegrationsPage'), 'IntegrationsPage');
const DeliveriesPage = page(() => import('./integrations/DeliveriesPage'), 'DeliveriesPage');
const ReliabilityPage = page(() => import('./reliability/ReliabilityPage'), 'ReliabilityPage');

// Indigo, not red: red is for errors and triggered incidents, and a focused field must not look refused.
const theme = createTheme({ primaryColor: 'indigo' });
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: true } } });

/** Signed-in pages: a visitor without a session goes to the login page; the event stream runs while signed in. */
export function SignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  useLiveIncidents(session.isSuccess);
  if (session.isPending) return <Loader aria-label="Loading" m="xl" />;
  if (session.error instanceof ApiError && session.error.status === 401) return <Navigate to="/login" replace />;
  if (session.error instanceof ApiError && (session.error.code === OFFLINE || session.error.status >= 500))
    return <OfflinePage message={session.error.message} onRetry={() => void session.refetch()} retrying={session.isFetching} />;
  if (session.error) return <p role="alert">{session.error.message}</p>;
  return (
    <Shell session={session.data}>
      <Suspense fallback={<Loader aria-label="Loading the page" m="xl" />}>{children}</Suspense>
    </Shell>
  );
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
            <Route
              path="/incidents/:id"
              element={
                <SignedIn>
                  <IncidentPage />
                </SignedIn>
              }
            />
            <Route
              path="/setup"
              element={
                <SignedIn>
                  <SetupPage />
                </SignedIn>
              }
            />
            <Route
              path="/services"
              element={
                <SignedIn>
                  <ServicesPage />
                </SignedIn>
              }
            />
            <Route
              path="/services/:id"
              element={
                <SignedIn>
                  <ServicePage />
                </SignedIn>
              }
            />
            <Route
              path="/on-call"
              element={
                <SignedIn>
                  <OnCallPage />
                </SignedIn>
              }
            />
            <Route
              path="/escalation-policies"
              element={
                <SignedIn>
                  <PoliciesPage />
                </SignedIn>
              }
            />
            <Route
              path="/drills"
              element={
                <SignedIn>
                  <DrillsPage />
                </SignedIn>
              }
            />
            <Route
              path="/readiness"
              element={
                <SignedIn>
                  <ReadinessPage />
                </SignedIn>
              }
            />
            <Route
              path="/reliability"
              element={
                <SignedIn>
                  <ReliabilityPage />
                </SignedIn>
              }
            />
            <Route
              path="/schedules"
              element={
                <SignedIn>
                  <SchedulesPage />
                </SignedIn>
              }
            />
            <Route
              path="/schedules/:id"
              element={
                <SignedIn>
                  <SchedulePage />
                </SignedIn>
              }
            />
            <Route
              path="/profile"
              element={
                <SignedIn>
                  <ProfilePage />
                </SignedIn>
              }
            />
            <Route
              path="/members"
              element={
                <SignedIn>
                  <MembersPage />
                </SignedIn>
              }
            />
            <Route
              path="/credentials"
              element={
                <SignedIn>
                  <CredentialsPage />
                </SignedIn>
              }
            />
            <Route
              path="/security"
              element={
                <SignedIn>
                  <SecurityPage />
                </SignedIn>
              }
            />
            <Route
              path="/monitoring"
              element={
                <SignedIn>
                  <MonitoringPage />
                </SignedIn>
              }
            />
            <Route
              path="/reports"
              element={
                <SignedIn>
                  <ReportsPage />
                </SignedIn>
              }
            />
            <Route
              path="/notifications"
              element={
                <SignedIn>
                  <NotificationsPage />
                </SignedIn>
              }
            />
            <Route
              path="/outgoing-webhooks"
              element={
                <SignedIn>
                  <OutgoingWebhooksPage />
                </SignedIn>
              }
            />
            <Route
              path="/integrations"
              element={
                <SignedIn>
                  <IntegrationsPage />
                </SignedIn>
              }
            />
            <Route
              path="/integrations/deliveries"
              element={
                <SignedIn>
                  <DeliveriesPage />
                </SignedIn>
              }
            />
            <Route
              path="/settings/sso"
              element={
                <SignedIn>
                  <SsoPage />
                </SignedIn>
              }
            />
            <Route
              path="/settings/import"
              element={
                <SignedIn>
                  <ImportPage />
                </SignedIn>
              }
            />
            <Route
              path="*"
              element={
                <SignedIn>
                  <IncidentsPage />
                </SignedIn>
              }
            />
          </Routes>
        </BrowserRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
}
