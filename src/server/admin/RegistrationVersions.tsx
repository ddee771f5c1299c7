/**
 * The versions of a registration on the console's page: each submission with its wording
 * version (schema hash) and time, and between consecutive ones what changed, by prompt (answers
 * before and after, sensitive ones masked; documents replaced, added or removed). Drawn by
 * React on the server as a part of the console's registration page; the diff is the shared
 * `versionDiff`.
 */
import type { AnswerSide, VersionDiff } from '../../shared/forms/review/versionDiff';
import { maskValue } from './RegistrationAnswers';

export interface ShownVersion {
  version: number;
  schemaHash: string;
  submittedAt: string;
  /** What changed since the version before (undefined for the first). */
  diff?: VersionDiff | undefined;
  /** Said when the prompts cannot be the ones this version was asked under. */
  wordingNote?: string | undefined;
}

/** The id of the heading of what `version` changed (the page's top links to it). */
export const versionChangesId = (version: number) => `changes-v${version}`;

const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** The section, nothing for a registration submitted once, or a sentence saying why not. */
export function RegistrationVersions({ versions }: { versions: readonly ShownVersion[] | string }) {
  if (typeof versions === 'string') {
    return (
      <section aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        <p className="error">{versions}</p>
      </section>
    );
  }
  return versions.length ? <Versions versions={versions} /> : null;
}

function Versions({ versions }: { versions: readonly ShownVersion[] }) {
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      <table className="answers versions">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Submitted</th>
            <th scope="col">Wording version (schema hash)</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <td>{v.version}</td>
              <td>{utc(v.submittedAt)}</td>
              <td>
                <code>{v.schemaHash}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {versions.map((v, index) =>
        v.diff && index > 0 ? (
          <Changes key={v.version} from={versions[index - 1]!.version} version={v} />
        ) : null,
      )}
    </section>
  );
}

function Changes({ from, version }: { from: number; version: ShownVersion }) {
  const diff = version.diff!;
  const title = `What changed from version ${from} to version ${version.version}`;
  const nothing = diff.answers.length === 0 && diff.documents.length === 0;
  return (
    <>
      <h3 id={versionChangesId(version.version)}>{title}</h3>
      {version.wordingNote && <p className="muted">{version.wordingNote}</p>}
      {nothing ? (
        <p>No answer or document changed.</p>
      ) : (
        <table className="answers diff">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">{`Version ${from}`}</th>
              <th scope="col">{`Version ${version.version}`}</th>
            </tr>
          </thead>
          <tbody>
            {diff.answers.map((change) => (
              <tr key={change.pointer}>
                <th scope="row">
                  {change.after?.prompt ?? change.before?.prompt}
                  {change.before &&
                    change.after &&
                    change.before.prompt !== change.after.prompt && (
                      <span className="muted">{` (asked as “${change.before.prompt}” before)`}</span>
                    )}
                </th>
                <td className="before">
                  <SideText side={change.before} missing="Not asked" />
                </td>
                <td className="after">
                  <SideText side={change.after} missing="No longer asked" />
                </td>
              </tr>
            ))}
            {diff.documents.map((change) => (
              <tr key={change.key}>
                <th scope="row">{change.prompt}</th>
                <td className="before">{change.before ? change.before.name : 'None'}</td>
                <td className="after">
                  {change.after
                    ? `${change.after.name} (${change.change === 'replaced' ? 'replaced' : 'added'})`
                    : 'Removed'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** One side of a change: a sensitive answer stays masked here (Reveal is on the answer above). */
function SideText({ side, missing }: { side: AnswerSide | null; missing: string }) {
  if (!side) return <span className="muted">{missing}</span>;
  return <>{side.sensitive ? maskValue(side.text) : side.text}</>;
}
