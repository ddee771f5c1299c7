/**
 * A registration's answers on the staff console's page, drawn by React on the server from the
 * shared review rows (`shared/forms/review`: the compiled form and its walker, as the
 * applicant's review draws them): sections from the uiSchema, prompts, affiliated persons,
 * documents, sensitive answers masked with a Reveal, and beside every answer and document a
 * mark with a note for a change request. React escapes every answer; no HTML is built by hand.
 * A part of the console's registration page (`console/DetailPage.tsx`).
 */
import type { ReactNode } from 'react';
import type { ReviewItem, ReviewRow, ReviewSection } from '../../shared/forms/review/reviewRows';
import type { RegistrationDocument, RegistrationPerson } from '../db/adminQueries';
import type { StepSignature } from './registrationView';

/** The id of the request-changes form the marks belong to (`form` attribute). */
export const CHANGES_FORM_ID = 'request-changes';
/** Name of a mark's checkbox (value: the answer's pointer) and the prefix of its note's name. */
export const MARK_FIELD = 'mark';
export const MARK_NOTE_PREFIX = 'note:';

/** Images that uploads accept and browsers show inline (checked by content when stored). */
export const PREVIEWABLE_IMAGES = new Set(['image/jpeg', 'image/png', 'image/webp']);
/**
 * Images browsers do not show (HEIC, as phones save photos): previewed through the JPEG rendition
 * made when they were uploaded; the download is still the original.
 */
export const PREVIEWED_AS_JPEG = new Set(['image/heic']);

/** What the answers are drawn from, and what they may offer (Reveal, the marks). */
export interface AnswersViewProps {
  consoleBase: string;
  registrationId: string;
  sections: readonly ReviewSection[];
  /** Each step's signature, as sent. */
  signatures: readonly StepSignature[];
  documents: readonly RegistrationDocument[];
  /** Each document's title by multipart part (its prompt; `… (signed document)`). */
  documentTitles: ReadonlyMap<string, string>;
  persons: readonly RegistrationPerson[];
  /** The answer key of the affiliated persons (the form's `x-registration.persons`). */
  personsKey?: string | undefined;
  csrfField: string;
  csrfToken: string;
  /** Sensitive answers shown in full (the reveal's fallback without script). */
  revealed: ReadonlySet<string>;
  /** Whether answers may be marked for a change request (the registration awaits review). */
  marking: boolean;
  /** The answers a change request still waiting asked to change, with each note, by pointer. */
  requested?: ReadonlyMap<string, string> | undefined;
  /** An answer's prompt as it stands alone ('Affiliated person 2: Passport country …'). */
  promptOf?: ((pointer: string) => string | undefined) | undefined;
  /** The form of this registration is not served any more: nothing to draw the answers by. */
  formMissing?: string | undefined;
}

/** Masks all but the last four characters of an identifier; a date is masked entirely. */
export function maskValue(text: string): string {
  if (/^(\d{1,2}\/\d{1,2}\/\d{4}|\d{4}-\d{2}-\d{2})$/.test(text)) return text.replace(/\d/g, '•');
  const significant = text.replace(/[^0-9a-z]/gi, '').length;
  const keep = Math.min(4, Math.floor(significant / 2));
  let toMask = significant - keep;
  return text.replace(/[0-9a-z]/gi, (c) => (toMask-- > 0 ? '•' : c));
}

/** An element id from an answer's pointer (`/affiliatedPersons/0/ssn` → `a-affiliatedPersons-0-ssn`). */
const anchorOf = (pointer: string) =>
  `a${pointer.replace(/[^A-Za-z0-9_-]/g, (c) => (c === '/' ? '-' : `_${c.charCodeAt(0)}`))}`;

export function RegistrationAnswers(props: AnswersViewProps) {
  return (
    <>
      {props.persons.length > 0 && (
        <PersonsSummary persons={props.persons} personsKey={props.personsKey} />
      )}
      {props.requested && props.requested.size > 0 && <RequestedChanges {...props} />}
      <h2>Answers as submitted</h2>
      <p className="muted">
        Each prompt is the wording the applicant answered. Sensitive identifiers are masked;
        revealing one is logged.
        {props.marking &&
          ' Mark an answer or document to ask the applicant to change it, with a note; then press Request changes below.'}
      </p>
      {props.formMissing ? (
        <p className="error">{props.formMissing}</p>
      ) : (
        props.sections.map((section) => (
          <table className="answers" key={`${section.stepId}-${section.sectionIndex}`}>
            <caption>{section.title}</caption>
            <tbody>
              {section.rows.map((row) => (
                <tr
                  key={row.pointer}
                  id={anchorOf(row.pointer)}
                  className={requestedClass(props, row.pointer)}
                >
                  <th scope="row">{row.prompt}</th>
                  <td>
                    <Answer {...props} row={row} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))
      )}
      {props.signatures.length > 0 && (
        <table className="answers">
          <caption>Signatures</caption>
          <tbody>
            {props.signatures.map((signature) => (
              <tr key={signature.prompt}>
                <th scope="row">{signature.prompt}</th>
                <td>
                  {signature.signer ? `Signed by ${signature.signer}` : 'Signed'}
                  {signature.part && (
                    <>
                      {' · '}
                      <DocumentLink {...props} part={signature.part} label="signed document" />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Documents</h2>
      {props.documents.length ? (
        <ul>
          {props.documents.map((document) => (
            <li key={document.id}>
              <DocumentLink {...props} part={document.part} label={titleOf(props, document.part)} />
            </li>
          ))}
        </ul>
      ) : (
        <p>No documents.</p>
      )}
    </>
  );
}

/**
 * The changes asked of the applicant while the registration waits for them (issue 38 §5): each
 * marked answer by prompt, with its note, linking to the answer (highlighted in the tables).
 */
function RequestedChanges(props: AnswersViewProps) {
  return (
    <section aria-labelledby="requested-heading" className="requested-summary">
      <h2 id="requested-heading">Changes asked of the applicant</h2>
      <p className="muted">
        Waiting for the applicant; the notes below were sent with the request.
      </p>
      <ul>
        {[...(props.requested ?? [])].map(([pointer, note]) => (
          <li key={pointer}>
            <a href={`#${anchorOf(pointer)}`}>{props.promptOf?.(pointer) ?? pointer}</a>
            {note ? `: ${note}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

function PersonsSummary({
  persons,
  personsKey,
}: {
  persons: readonly RegistrationPerson[];
  personsKey: string | undefined;
}) {
  return (
    <>
      <h2>Affiliated persons</h2>
      <table className="answers persons">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Name</th>
            <th scope="col">Title</th>
            <th scope="col">Ownership</th>
          </tr>
        </thead>
        <tbody>
          {persons.map((p) => (
            <tr key={p.position}>
              <td>{p.position + 1}</td>
              <td>
                {personsKey ? (
                  <a href={`#${anchorOf(`/${personsKey}/${p.position}`)}`}>
                    {`${p.firstName} ${p.lastName}`}
                  </a>
                ) : (
                  `${p.firstName} ${p.lastName}`
                )}
              </td>
              <td>{p.title ?? '—'}</td>
              <td>
                {p.ownershipPercent === null ? '—' : `${p.ownershipPercent}%`}
                {p.isDirect === null ? '' : p.isDirect ? ' direct' : ' indirect'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const titleOf = (props: AnswersViewProps, part: string) =>
  props.documentTitles.get(part) ?? part.replace(/^document\./, '');

function Answer(props: AnswersViewProps & { row: ReviewRow }) {
  const { row } = props;
  if (row.children) return <Group {...props} rows={row.children} />;
  if (row.items?.length) {
    return (
      <ol className="items">
        {row.items.map((item) => (
          <Item key={item.pointer} {...props} item={item} />
        ))}
      </ol>
    );
  }
  return (
    <>
      <Value {...props} row={row} />
      <Mark {...props} row={row} />
      <RequestedNote {...props} row={row} />
    </>
  );
}

/** Under an answer a waiting change request marked: that it was asked, with the note. */
function RequestedNote(props: AnswersViewProps & { row: ReviewRow }) {
  if (!props.requested?.has(props.row.pointer)) return null;
  const note = props.requested.get(props.row.pointer);
  return (
    <p className="requested-note">
      <strong>Change requested</strong>
      {note ? `: ${note}` : ''}
    </p>
  );
}

const requestedClass = (props: AnswersViewProps, pointer: string) =>
  props.requested?.has(pointer) ? 'requested' : undefined;

function Item(props: AnswersViewProps & { item: ReviewItem }) {
  const { item } = props;
  return (
    <li id={anchorOf(item.pointer)}>
      <h3 className="item">{item.title}</h3>
      <Group {...props} rows={item.rows} />
    </li>
  );
}

function Group(props: AnswersViewProps & { rows: readonly ReviewRow[] }) {
  return (
    <dl className="group">
      {props.rows.map((row) => (
        <div
          key={row.pointer}
          id={anchorOf(row.pointer)}
          className={requestedClass(props, row.pointer)}
        >
          <dt>{row.prompt}</dt>
          <dd>
            <Answer {...props} row={row} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** An answer's text: a file or signed document as its link, a sensitive one masked. */
function Value(props: AnswersViewProps & { row: ReviewRow }) {
  const { row } = props;
  if (row.file) {
    return <DocumentLink {...props} part={row.file.part} label={row.file.name} preview />;
  }
  if (row.signedPart) {
    return (
      <>
        {row.text} · <DocumentLink {...props} part={row.signedPart} label="signed document" />
      </>
    );
  }
  if (!row.sensitive || !row.answered) return <>{row.text}</>;
  if (props.revealed.has(row.pointer)) {
    return (
      <>
        <span className="revealed">{row.text}</span>{' '}
        <span className="muted">(revealed, logged)</span>
      </>
    );
  }
  return (
    <span className="sensitive">
      <span className="masked" data-reveal-value="">
        {maskValue(row.text)}
      </span>
      <form
        method="post"
        className="inline reveal"
        action={`${props.consoleBase}/registrations/${props.registrationId}/reveal`}
      >
        <input type="hidden" name={props.csrfField} defaultValue={props.csrfToken} />
        <input type="hidden" name="field" defaultValue={row.pointer} />
        <button type="submit" className="link" aria-label={`Reveal ${row.prompt}`}>
          Reveal
        </button>
      </form>
      <span className="reveal-status" role="status" />
    </span>
  );
}

function DocumentLink(
  props: AnswersViewProps & { part: string; label: string; preview?: boolean },
): ReactNode {
  const document = props.documents.find((d) => d.part === props.part);
  if (!document) {
    return (
      <>
        {props.label} <span className="muted">(file missing)</span>
      </>
    );
  }
  const href = `${props.consoleBase}/documents/${document.id}`;
  const link = (
    <>
      <a href={href} download>
        {props.label}
      </a>{' '}
      <span className="muted">
        ({document.contentType}, {Math.ceil(document.size / 1024)} KB)
      </span>
    </>
  );
  const previewable =
    PREVIEWABLE_IMAGES.has(document.contentType) || PREVIEWED_AS_JPEG.has(document.contentType);
  if (!props.preview || !previewable) return link;
  return (
    <figure className="preview">
      <a href={`${href}?inline=1`} target="_blank" rel="noopener">
        <img src={`${href}?inline=1`} alt={titleOf(props, props.part)} loading="lazy" />
      </a>
      <figcaption>{link}</figcaption>
    </figure>
  );
}

/**
 * The mark beside an answer: a checkbox and a note for the applicant, both belonging to the
 * request-changes form further down (HTML's `form` attribute), so one post sends every mark.
 */
function Mark(props: AnswersViewProps & { row: ReviewRow }) {
  if (!props.marking) return null;
  const { row } = props;
  const id = `mark-${anchorOf(row.pointer)}`;
  return (
    <details className="mark">
      <summary>
        Mark<span className="visually-hidden">{` ${row.prompt} for a change`}</span>
      </summary>
      <label className="mark-check">
        <input type="checkbox" form={CHANGES_FORM_ID} name={MARK_FIELD} value={row.pointer} /> Ask
        the applicant to change this
      </label>
      <label htmlFor={id}>{`Note on “${row.prompt}” (shown to the applicant)`}</label>
      <textarea
        id={id}
        form={CHANGES_FORM_ID}
        name={`${MARK_NOTE_PREFIX}${row.pointer}`}
        rows={2}
        maxLength={2000}
      />
    </details>
  );
}
