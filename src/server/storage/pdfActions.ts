/**
 * What a PDF does when opened or clicked, judged on the objects a viewer resolves (pdf.js's
 * parser, see pdfEngine.ts): every object reachable from the catalog the cross-reference names,
 * references resolved, names decoded. An action is judged by its type, wherever it hangs: the
 * open action, additional actions (`/AA`) of the document, pages, annotations and form fields,
 * link and outline actions, chained `/Next` actions.
 */
import type { PdfDict, PdfEngine, PdfStream, PdfXRef } from './pdfEngine';

/**
 * Most objects (dictionaries, arrays, streams) one inspection walks. A 10 MB PDF of real text
 * holds tens of thousands; a hostile one cannot make the walk run on beyond this.
 */
export const MAX_PDF_OBJECTS = 500_000;

/** Keys whose mere presence means scripts, embedded files, XFA or rich media. */
const ACTIVE_KEYS = new Set([
  'JS', // a script (JavaScript and Rendition actions)
  'JavaScript', // the names tree of document-level scripts
  'EmbeddedFiles', // the names tree of attached files
  'EF', // a file specification carrying the file itself
  'XFA', // an XFA form (scripted, rendered by the viewer)
  'RichMediaContent',
  'AlternatePresentations', // slide shows, which may script
]);
/** `/Type` and `/Subtype` values of objects that embed or play something. */
const ACTIVE_TYPES = new Set([
  'EmbeddedFile',
  'RichMedia',
  'FileAttachment',
  'Movie',
  'Sound',
  '3D',
]);
/**
 * Actions that stay inside the document and the viewer: go to a page, a viewer command (next
 * page, print), show or hide layers or fields, reset a form, a transition. Every other type is
 * refused: JavaScript, Launch, SubmitForm, ImportData, GoToR and GoToE (another file, possibly
 * on a network share, whose opening leaks the user's credentials), Rendition, Sound, Movie,
 * RichMediaExecute, GoTo3DView, and any type this list does not know.
 */
const INTERNAL_ACTIONS = new Set(['GoTo', 'Named', 'SetOCGState', 'Hide', 'ResetForm', 'Trans']);

/**
 * How an action fires: `automatic` when the document opens or an event happens (`/OpenAction`,
 * `/AA`), `clicked` when the user clicks a link, an outline item or a button (`/A`).
 */
type Trigger = 'automatic' | 'clicked';

/** The active content found first (a short description, never document text), or null. */
type Verdict = { active: string | null } | { unreadable: string };

/**
 * Walks the document from its catalog and returns the first active content found. A link (`URI`
 * with http, https, ftp or mailto) is accepted where the user clicks it, as every viewer opens
 * it, in a browser or a mail program; a `URI` that fires by itself (open action, additional
 * action) is refused, as is any other scheme (`javascript:`, `file:`, `smb:`, a `\\server\share`
 * path, which would send the user's network credentials).
 */
export function pdfActiveContent(
  engine: PdfEngine,
  xref: PdfXRef,
  maxObjects = MAX_PDF_OBJECTS,
  streams: PdfStream[] = [],
): Verdict {
  try {
    return walk(engine, xref, maxObjects, streams);
  } catch (error) {
    return { unreadable: (error as Error)?.name || 'an object that cannot be read' };
  }
}

/** Walks every object the catalog reaches; the streams among them are added to `streams`. */
function walk(engine: PdfEngine, xref: PdfXRef, maxObjects: number, streams: PdfStream[]): Verdict {
  const { Dict, Name, Ref, BaseStream } = engine;
  /**
   * A reference's object, as the viewer fetches it. One that fails to parse (or to inflate
   * within the engine's bounds) throws: another viewer might read it, so the document is refused
   * rather than judged without it. A reference to no object is null, as for every viewer.
   */
  const resolve = (value: unknown): unknown => (value instanceof Ref ? xref.fetch(value) : value);
  const nameOf = (value: unknown): string | null => {
    const resolved = resolve(value);
    return resolved instanceof Name ? resolved.name : null;
  };

  /** Judges an action (and its `/Next` chain); a dictionary without `/S` is not an action. */
  const judgeAction = (value: unknown, trigger: Trigger): string | null => {
    const pending: unknown[] = [value];
    const judged = new Set<unknown>();
    while (pending.length > 0) {
      const action = resolve(pending.pop());
      if (Array.isArray(action)) {
        pending.push(...action); // a /Next array; an /OpenAction destination array holds no dict
        continue;
      }
      if (!(action instanceof Dict) || judged.has(action)) continue;
      judged.add(action);
      if (judged.size > maxObjects) return 'an endless action chain';
      const type = nameOf(action.getRaw('S'));
      if (type === null) {
        if (action.has('S')) return 'an action of no readable type';
        continue;
      }
      if (type === 'URI') {
        if (trigger === 'automatic') return 'a web address opened by itself';
        if (!isPlainWebLink(resolve(action.getRaw('URI'))))
          return 'a link that is not a web address';
      } else if (type === 'Thread') {
        if (action.has('F')) return 'an article in another file';
      } else if (!INTERNAL_ACTIONS.has(type)) {
        return `${/^[AEIOU]/.test(type) ? 'an' : 'a'} ${type} action`;
      }
      pending.push(action.getRaw('Next'));
    }
    return null;
  };

  /** The active content one dictionary carries itself; its values are walked by the caller. */
  const judgeDict = (dict: PdfDict, isStream: boolean): string | null => {
    for (const key of dict.getKeys()) {
      if (ACTIVE_KEYS.has(key)) return `/${key}`;
      const raw = dict.getRaw(key);
      if (key === 'Type' || key === 'Subtype') {
        const name = nameOf(raw);
        if (name && ACTIVE_TYPES.has(name)) return `/${name}`;
        if (key === 'Type' && name === 'Action') {
          const found = judgeAction(dict, 'clicked');
          if (found) return found;
        }
      } else if (key === 'OpenAction' || key === 'A') {
        const found = judgeAction(raw, key === 'A' ? 'clicked' : 'automatic');
        if (found) return `${found} (/${key})`;
      } else if (key === 'AA') {
        const events = resolve(raw);
        if (events instanceof Dict) {
          for (const event of events.getKeys()) {
            const found = judgeAction(events.getRaw(event), 'automatic');
            if (found) return `${found} (/AA)`;
          }
        }
      } else if (key === 'F' && isStream) {
        return 'a stream read from another file';
      }
    }
    return null;
  };

  const pending: unknown[] = [xref.getCatalogObj()];
  const seenRefs = new Set<string>();
  const seen = new Set<object>();
  while (pending.length > 0) {
    let value = pending.pop();
    if (value instanceof Ref) {
      const key = `${value.num}R${value.gen}`;
      if (seenRefs.has(key)) continue;
      seenRefs.add(key);
      value = resolve(value);
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    if (!(Array.isArray(value) || value instanceof Dict || value instanceof BaseStream)) continue;
    seen.add(value);
    if (seen.size > maxObjects) return { unreadable: 'too many objects' };
    if (Array.isArray(value)) {
      pending.push(...(value as unknown[]));
      continue;
    }
    const isStream = value instanceof BaseStream;
    if (isStream) streams.push(value as PdfStream);
    const dict = isStream ? (value as PdfStream).dict : (value as PdfDict);
    if (!dict) continue;
    const found = judgeDict(dict, isStream);
    if (found) return { active: found };
    for (const key of dict.getKeys()) pending.push(dict.getRaw(key));
  }
  return { active: null };
}

/**
 * A URI a viewer hands to a browser or a mail program: http, https, ftp (software manuals link
 * their downloads so, issue 26) or mailto, after removing what browsers ignore inside a URL
 * (whitespace, control characters), so `java\tscript:` is seen as the `javascript:` it is.
 */
function isPlainWebLink(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = value.startsWith('\u00fe\u00ff') ? utf16be(value.slice(2)) : value;
  // eslint-disable-next-line no-control-regex
  const compact = text.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  return /^(https?|ftp|mailto):/i.test(compact);
}

/** A PDF text string in UTF-16BE (after its byte order mark), its bytes held one per char. */
function utf16be(bytes: string): string {
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) {
    text += String.fromCharCode((bytes.charCodeAt(i) << 8) | bytes.charCodeAt(i + 1));
  }
  return text;
}
