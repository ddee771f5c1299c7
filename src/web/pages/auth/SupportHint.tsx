import { SupportContact } from '../../app/SupportContact';

/** "If this problem persists, …": the support hint under failure alerts. */
export function SupportHint() {
  return (
    <>
      {' '}
      If this problem persists, please contact support at <SupportContact emailOnly />.
    </>
  );
}
