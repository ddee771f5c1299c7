/**
 * The routing table of access §2 and business §2.9, relative to the basename /clearing.
 * Form pages load lazily so the sign-in route carries no registration code.
 */
import { lazy } from 'react';
import type { RouteObject } from 'react-router-dom';
import { DISCLOSURE_CATEGORIES } from '../../shared/api/disclosures';
import { loadApplicationEarly } from '../api/get-application';
import { loadRegistrationForm, registrationKind } from '../forms/registrationForms';
import { FullPageReload } from './FullPageReload';
import { ProtectedRoute, RegisteredRoute, SignedOutRoute, UnregisteredRoute } from './guards';
import { Layout } from './Layout';
import type { RouteHandle } from './routeHandle';
import { RouteErrorPage } from '../pages/errors/ErrorPage';
import { NotFoundPage } from '../pages/errors/NotFoundPage';
// Logout stays in the main bundle: it must run at once, before any guard reacts to the sign-out.
import { LogoutPage } from '../pages/auth/LogoutPage';
import { SignInPage } from '../pages/auth/SignInPage';
import { SignUpPage } from '../pages/auth/SignUpPage';

export const ROUTER_BASENAME = '/clearing';

// Every page but sign-in and sign-up loads on demand, so the sign-in route carries only what it
// shows (the statement, the live market stream and the disclosures stay out of its bundle).
const HomePage = lazy(() =>
  import('../pages/home/HomePage').then((module) => ({ default: module.HomePage })),
);
const ResetPasswordPage = lazy(() =>
  import('../pages/auth/ResetPasswordPage').then((module) => ({
    default: module.ResetPasswordPage,
  })),
);
const VerifyEmailPage = lazy(() =>
  import('../pages/auth/VerifyEmailPage').then((module) => ({ default: module.VerifyEmailPage })),
);
const DisclosuresIndexPage = lazy(() =>
  import('../pages/disclosures/DisclosuresIndexPage').then((module) => ({
    default: module.DisclosuresIndexPage,
  })),
);
const DisclosureCategoryPage = lazy(() =>
  import('../pages/disclosures/DisclosureCategoryPage').then((module) => ({
    default: module.DisclosureCategoryPage,
  })),
);
const RegistrationChoicePage = lazy(() =>
  import('../pages/registration/RegistrationChoicePage').then((module) => ({
    default: module.RegistrationChoicePage,
  })),
);

/**
 * The form id of a registration page's address (`/clearing/registration/<form-id>`, or its
 * changes page with `changes`), or undefined.
 */
function registrationFormAt(pathname: string, changes: boolean): string | undefined {
  const pattern = changes ? /\/registration\/([^/]+)\/changes\/?$/ : /\/registration\/([^/]+)\/?$/;
  const formId = pattern.exec(pathname)?.[1];
  return formId ? decodeURIComponent(formId) : undefined;
}

/**
 * The app opened at a registration page's address (a reload, a link, a return to a saved
 * application): the application starts loading with the app itself, beside the sign-in check,
 * not after it and the user's details (the page's own load then takes it). Nothing for any other
 * address, or a form id no registration form has; a signed-out browser's refused GET is not
 * taken (the page asks again once signed in).
 */
export function loadApplicationForAddress(pathname: string): void {
  const formId = registrationFormAt(pathname, false) ?? registrationFormAt(pathname, true);
  if (formId && registrationKind(formId)) loadApplicationEarly(formId);
}

/** Every registration form (`registration/<form-id>`): one page, the form's files decide. */
const RegistrationFormPage = lazy(() => {
  // The saved application loads beside the page's code, not after it.
  const formId = registrationFormAt(window.location.pathname, false);
  if (formId) {
    loadApplicationEarly(formId);
    // The form's own module too, beside the page's code (no waterfall of chunks).
    void loadRegistrationForm(formId);
  }
  return import('../pages/registration/RegistrationPage').then((module) => ({
    default: module.RegistrationFormPage,
  }));
});
/** Lazy too: its phone formatting brings libphonenumber-js, which the sign-in route need not load. */
const ChangesRequestedPage = lazy(() => {
  // The application loads beside the page's code, as on the registration pages (issue 26 §1).
  const formId = registrationFormAt(window.location.pathname, true);
  if (formId) {
    loadApplicationEarly(formId);
    void loadRegistrationForm(formId);
  }
  return import('../pages/registration/ChangesRequestedPage').then((module) => ({
    default: module.ChangesRequestedPage,
  }));
});
const AcceptInvitePage = lazy(() =>
  import('../pages/auth/AcceptInvitePage').then((module) => ({
    default: module.AcceptInvitePage,
  })),
);
/** Development only: the form preview for compliance staff, left out of production builds. */
const FormsPreviewPage = import.meta.env.DEV
  ? lazy(() =>
      import('../pages/dev/FormsPreviewPage').then((module) => ({
        default: module.FormsPreviewPage,
      })),
    )
  : null;

const dark: RouteHandle = { darkHeader: true };
const darkNoProfile: RouteHandle = { darkHeader: true, hideProfileMenu: true };

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <RouteErrorPage standalone />,
    children: [
      {
        // Errors below the layout keep the header and footer around the error page.
        errorElement: <RouteErrorPage />,
        children: [
          {
            element: <SignedOutRoute />,
            children: [
              { index: true, element: <SignUpPage /> },
              { path: 'signup', element: <SignUpPage /> },
              {
                path: 'signin',
                element: <SignInPage />,
                handle: { darkHeader: true, hideSignIn: true } satisfies RouteHandle,
              },
              { path: 'user/verify-email', element: <VerifyEmailPage />, handle: darkNoProfile },
              {
                path: 'user/reset-password',
                element: <ResetPasswordPage />,
                handle: darkNoProfile,
              },
              { path: 'user/accept-invite', element: <AcceptInvitePage />, handle: darkNoProfile },
            ],
          },
          // Logout checks the session itself: ending it must not trip the protected-page guard.
          { path: 'logout', element: <LogoutPage /> },
          {
            element: <ProtectedRoute />,
            children: [
              {
                element: <RegisteredRoute />,
                children: [
                  { path: 'home', element: <HomePage /> },
                  // Changes requested: the submitted registration reopened (issue 17).
                  { path: 'registration/:formId/changes', element: <ChangesRequestedPage /> },
                ],
              },
              {
                path: 'registration',
                element: <UnregisteredRoute />,
                handle: dark,
                children: [
                  { index: true, element: <RegistrationChoicePage /> },
                  { path: ':formId', element: <RegistrationFormPage /> },
                ],
              },
            ],
          },
          {
            path: 'regulation/disclosures',
            children: [
              { index: true, element: <DisclosuresIndexPage /> },
              ...DISCLOSURE_CATEGORIES.map((category) => ({
                path: category,
                element: <DisclosureCategoryPage category={category} />,
              })),
            ],
          },
          { path: 'admin/*', element: <FullPageReload /> },
          ...(FormsPreviewPage
            ? [{ path: 'dev/forms/:formId?', element: <FormsPreviewPage /> }]
            : []),
          // Any other address: the not-found page (the server answers it with 404).
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
