/** The staff console's section on signature evidence: one row per agreement, one download. */
import { emailHtml, escapeHtml as e } from '../admin/consoleHtml';
import type { SignatureEvidence } from '../db/signatureEvidence';

const utc = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
/** A time that may wrap between its date and its time, never inside either (`2026-11-` `28`). */
const when = (iso: string) =>
  utc(iso)
    .split(' ')
    .reduce<string[]>(
      (parts, word, index) => (index < 2 ? [...parts, word] : [parts[0]!, `${parts[1]} ${word}`]),
      [],
    )
    .map((part) => `<span class="nowrap">${e(part)}</span>`)
    .join(' ');
const short = (hash: string | null) => (hash ? `${hash.slice(0, 16)}…` : '—');

export function evidenceSection(
  consoleBase: string,
  registrationId: string,
  evidence: readonly SignatureEvidence[],
): string {
  if (evidence.length === 0) {
    return '<h2>Signature evidence</h2>\n<p>No signature evidence is recorded for this registration.</p>';
  }
  const rows = evidence
    .map((item) => {
      const published =
        item.publishedSha256 === null
          ? 'no published document to compare'
          : item.publishedSha256 === item.sha256
            ? 'same bytes as the published document'
            : 'differs from the document published then';
      return `<tr><th scope="row">${e(item.prompt)}<br><a href="${consoleBase}/documents/${e(item.documentId)}" download>${e(item.documentUrl)}</a></th>
<td><code title="${e(item.sha256)}">${e(short(item.sha256))}</code><br><span class="muted">${e(published)}</span></td>
<td>${item.signedAt ? when(item.signedAt) : 'not recorded'}<br><span class="muted">submitted ${when(item.submittedAt)}</span></td>
<td>${e(item.ip ?? '—')}<br><span class="muted">${e(item.userAgent ?? '—')}</span></td>
<td><span>${emailHtml(item.userEmail)}</span>${item.signerName ? `<br><span class="muted">signed as ${e(item.signerName)}</span>` : ''}</td>
<td><code title="${e(item.consentSha256 ?? '')}">${e(short(item.consentSha256))}</code>${item.consentGivenAt ? `<br><span class="muted">consent given ${when(item.consentGivenAt)}</span>` : ''}</td></tr>`;
    })
    .join('\n');
  return `<h2 id="evidence">Signature evidence</h2>
<p class="muted">For each agreement: the document as attached, the SHA-256 of its bytes, when it was signed (server time of the Electronically Sign press, as the application saved it) and when it was submitted, from where and by whom, and the e-sign consent the applicant gave before signing (its version: the SHA-256 of the consent document they consented to, and when).</p>
<div class="table-scroll"><table class="answers evidence"><thead><tr><th scope="col">Agreement and document</th><th scope="col">SHA-256 of the bytes</th><th scope="col">Signed at</th><th scope="col">IP address and user agent</th><th scope="col">User</th><th scope="col">Consent text version</th></tr></thead><tbody>
${rows}
</tbody></table></div>
<p><a href="${consoleBase}/registrations/${e(registrationId)}/evidence.zip" download>Download the signed documents with their evidence (ZIP)</a></p>`;
}
