/** The demo sign-ins printed at start and listed in the README (a module with no imports, so
 * the end-to-end tests can read it). */
export const DEMO_SIGN_INS = [
  {
    label: 'Approved customer',
    email: 'approved@demo.northstar.example',
    password: 'Demo-Pass-2026!',
  },
  {
    label: 'Customer awaiting review',
    email: 'pending@demo.northstar.example',
    password: 'Demo-Pass-2026!',
  },
  { label: 'Staff', email: 'staff@demo.northstar.example', password: 'Demo-Staff-2026!' },
] as const;
