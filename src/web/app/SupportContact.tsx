import Link from '@mui/material/Link';
import { firm } from '../../shared/config/firm';

/** "contact support at …": the firm's support email (and phone unless `emailOnly`). */
export function SupportContact({ emailOnly = false }: { emailOnly?: boolean }) {
  return (
    <>
      <Link href={`mailto:${firm.supportEmail}`}>{firm.supportEmail}</Link>
      {!emailOnly && <> or {firm.supportPhone}</>}
    </>
  );
}
