import { useEffect } from 'react';
import { useHref, useLocation } from 'react-router-dom';
import { browserLocation } from '../api/client';
import { Loading } from './guards';

/**
 * Hands a path to another site by loading it in full (e.g. /clearing/admin/*, the staff console).
 * Only client-side navigation reaches it; the server answers the same URL itself, so no loop.
 */
export function FullPageReload() {
  const location = useLocation();
  const href = useHref(location.pathname + location.search + location.hash);
  useEffect(() => {
    browserLocation.assign(href);
  }, [href]);
  return <Loading />;
}
