/** The staff console's section on signature evidence: one row per agreement, one download. */
import { Email } from '../admin/console/consoleParts';
import type { SignatureEvidence } from '../db/signatureEvidence';

const utc = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

/** A time that may wrap between its date and its time, never inside either (`2026-11-` `28`). */
function When({ iso }: { iso: string }) {
  const [date, ...time] = utc(iso).split(' ');
  return (
    <>
      <span className="nowrap">{date}</span> <span className="nowrap">{time.join(' ')}</span>
    </>
  );
}

const short = (hash: string | null) => (hash ? `${hash.slice(0, 16)}…` : '—');

interface EvidenceSectionProps {
  consoleBase: string;
  registrationId: string;
  evidence: readonly SignatureEvidence[];
}

export function EvidenceSection({ consoleBase, registrationId, evidence }: EvidenceSectionProps) {
  if (evidence.length === 0) {
    return (
      <>
        <h2>Signature evidence</h2>
        <p>No signature evidence is recorded for this registration.</p>
      </>
    );
  }
  return (
    <>
      <h2 id="evidence">Signature evidence</h2>
      <p className="muted">
        For each agreement: the document as attached, the SHA-256 of its bytes, when it was signed
        (server time of the Electronically Sign press, as the application saved it) and when it was
        submitted, from where and by whom, and the e-sign consent the applicant gave before signing
        (its version: the SHA-256 of the consent document they consented to, and when).
      </p>
      <div className="table-scroll">
        <table className="answers evidence">
          <thead>
            <tr>
              <th scope="col">Agreement and document</th>
              <th scope="col">SHA-256 of the bytes</th>
              <th scope="col">Signed at</th>
              <th scope="col">IP address and user agent</th>
              <th scope="col">User</th>
              <th scope="col">Consent text version</th>
            </tr>
          </thead>
          <tbody>
            {evidence.map((item) => (
              <EvidenceRow key={item.documentId} consoleBase={consoleBase} item={item} />
            ))}
          </tbody>
        </table>
      </div>
      <p>
        <a href={`${consoleBase}/registrations/${registrationId}/evidence.zip`} download>
          Download the signed documents with their evidence (ZIP)
        </a>
      </p>
    </>
  );
}

function EvidenceRow({ consoleBase, item }: { consoleBase: string; item: SignatureEvidence }) {
  const published =
    item.publishedSha256 === null
      ? 'no published document to compare'
      : item.publishedSha256 === item.sha256
        ? 'same bytes as the published document'
        : 'differs from the document published then';
  return (
    <tr>
      <th scope="row">
        {item.prompt}
        <br />
        <a href={`${consoleBase}/documents/${item.documentId}`} download>
          {item.documentUrl}
        </a>
      </th>
      <td>
        <code title={item.sha256}>{short(item.sha256)}</code>
        <br />
        <span className="muted">{published}</span>
      </td>
      <td>
        {item.signedAt ? <When iso={item.signedAt} /> : 'not recorded'}
        <br />
        <span className="muted">
          {'submitted '}
          <When iso={item.submittedAt} />
        </span>
      </td>
      <td>
        {item.ip ?? '—'}
        <br />
        <span className="muted">{item.userAgent ?? '—'}</span>
      </td>
      <td>
        <span>
          <Email email={item.userEmail} />
        </span>
        {item.signerName && (
          <>
            <br />
            <span className="muted">{`signed as ${item.signerName}`}</span>
          </>
        )}
      </td>
      <td>
        <code title={item.consentSha256 ?? ''}>{short(item.consentSha256)}</code>
        {item.consentGivenAt && (
          <>
            <br />
            <span className="muted">
              {'consent given '}
              <When iso={item.consentGivenAt} />
            </span>
          </>
        )}
      </td>
    </tr>
  );
}
