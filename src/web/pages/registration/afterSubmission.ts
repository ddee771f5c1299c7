/**
 * Where Okay on 'Submission Successful' leads (business spec §2.1): `/trade` when the page's path
 * contains 'botanical', otherwise home. `/trade` is outside the `/clearing` app, so it is a
 * full-page load (docs/decisions.md, Paths); home is a route of the app.
 */
export function afterSubmissionTarget(
  fullPathname: string,
): { kind: 'outside'; href: string } | { kind: 'route'; to: string } {
  return fullPathname.includes('botanical')
    ? { kind: 'outside', href: '/trade' }
    : { kind: 'route', to: '/home' };
}
