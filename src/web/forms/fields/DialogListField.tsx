import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import {
  errorId,
  getUiOptions,
  type ErrorSchema,
  type FieldProps,
  type RJSFSchema,
  type UiSchema,
} from '@rjsf/utils';
import type { CompiledForm } from '../../../shared/forms/model/compiledForm';
import { afterNextPaint } from '../afterNextPaint';
import { toPointer } from '../../../shared/forms/model/pointer';
import { errorFocusTarget, errorIds } from '../errors';
import type { FormSession, ListItemEdit } from '../session';
import { stringOption } from '../widgets/a11y';
import { visuallyHidden } from '../../app/theme';
import { ListTable } from './ListTable';
import { RuleValuesLine } from './RuleValuesLine';

/** One column of the list: its heading and the answers of a row it shows, joined by a space. */
interface Column {
  title: string;
  fields: string[];
  /** Appended to a non-empty value ('%'). */
  suffix?: string;
}

type Row = Record<string, unknown>;

/**
 * The form that draws an item (`ui:options.form`): one the page's compiled form carries
 * (`nested`, compiled with it: scripts/formValidatorsPlugin.ts).
 */
function nestedForm(session: FormSession | undefined, formId: string): CompiledForm | undefined {
  return formId ? session?.form.nested[formId] : undefined;
}

/** The page's session (SchemaForm puts it in rjsf's formContext). */
function sessionOf(props: FieldProps): FormSession | undefined {
  const context: unknown = props.registry.formContext;
  if (context && typeof context === 'object' && 'session' in context) {
    return (context as { session?: FormSession }).session;
  }
  return undefined;
}

function hasErrors(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  return Object.entries(node).some(([key, child]) =>
    key === '__errors' ? Array.isArray(child) && child.length > 0 : hasErrors(child),
  );
}

function cellText(row: Row, column: Column): string {
  const text = column.fields
    .map((name) => row[name])
    .filter((value) => value !== undefined && value !== null && value !== '')
    .map(String)
    .join(' ');
  return text && column.suffix ? `${text}${column.suffix}` : text;
}

function columnsOf(options: Record<string, unknown>, itemSchema: RJSFSchema | undefined): Column[] {
  const declared = Array.isArray(options.columns) ? (options.columns as unknown[]) : [];
  return declared
    .filter((c): c is Partial<Column> => !!c && typeof c === 'object')
    .map((c) => {
      const fields = Array.isArray(c.fields) ? c.fields.map(String) : [];
      const fallback = (itemSchema?.properties?.[fields[0] ?? ''] as RJSFSchema | undefined)?.title;
      return {
        title: typeof c.title === 'string' ? c.title : (fallback ?? fields.join(' ')),
        fields,
        suffix: typeof c.suffix === 'string' ? c.suffix : undefined,
      };
    });
}

/**
 * An array of objects drawn as a table, one row per item (the columns of `ui:options.columns`),
 * each row with an error badge when it has errors, Edit and Remove buttons, and an Add button.
 * Add and Edit open the item in a dialog: a view of the page's session (`editListItem`), drawn
 * with the page's fields and validated by the page's validator, with the item's uiSchema from the
 * form named by `ui:options.form` (the affiliated person's). Save shows every message of the item
 * at once and focuses the first, or writes the row; Cancel leaves the list as it was; Escape asks
 * first when something was typed. Focus goes into the dialog and comes back to the row's Edit
 * button (the Add button after a cancelled add).
 *
 * Rows are keyed by an identity of their own, kept across edits and removals, never by position.
 */
export function DialogListField(props: FieldProps) {
  const {
    schema,
    uiSchema,
    formData,
    errorSchema,
    fieldPathId,
    name,
    title,
    required,
    disabled,
    readonly,
    rawErrors,
    onChange,
    onBlur,
  } = props;
  const session = sessionOf(props);
  const options = getUiOptions(uiSchema) as Record<string, unknown>;
  const formOption = typeof options.form === 'string' ? options.form : '';
  const itemForm = nestedForm(sessionOf(props), formOption);
  const rows = useMemo<Row[]>(
    () => (Array.isArray(formData) ? (formData as Row[]) : []),
    [formData],
  );
  const keys = useRowKeys(rows);
  const id = fieldPathId.$id;
  const listPointer = toPointer(fieldPathId.path.map(String));
  // The item's own schema (a `$ref` resolved), as the dialog draws it.
  const itemSchema = useMemo(
    () =>
      schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items)
        ? props.registry.schemaUtils.retrieveSchema(schema.items as RJSFSchema)
        : undefined,
    [schema.items, props.registry.schemaUtils],
  );
  const columns = columnsOf(options, itemSchema);
  const label = (options.title as string | undefined) ?? schema.title ?? title ?? name;
  const addLabel = stringOption(options, 'addLabel', 'Add');
  const editLabel = stringOption(options, 'editLabel', 'Edit');
  const removeLabel = stringOption(options, 'removeLabel', 'Remove');
  const rowErrorLabel = stringOption(options, 'rowErrorLabel', 'Has errors');
  const emptyText = typeof options.emptyText === 'string' ? options.emptyText : undefined;
  const actionsTitle = stringOption(options, 'actionsTitle', 'Actions');

  const [editing, setEditing] = useState<ListItemEdit | null>(null);
  /** Where focus goes once the dialog has closed (or a row was removed). */
  const [focusAfter, setFocusAfter] = useState<{ target: string } | null>(null);

  useEffect(() => {
    if (!focusAfter) return;
    document.getElementById(focusAfter.target)?.focus();
  }, [focusAfter]);

  // A row fails when the page's validation finds errors inside it, shown or not (a draft
  // restored without its sensitive answers, say).
  const rowsWithErrors = useMemo(() => {
    if (!session || rows.length === 0) return new Set<number>();
    let node: unknown = session.validate().errorSchema;
    for (const key of fieldPathId.path) {
      node = node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
    const out = new Set<number>();
    rows.forEach((_, index) => {
      if (hasErrors((node as Record<string, unknown> | undefined)?.[index])) out.add(index);
    });
    return out;
  }, [session, rows, fieldPathId.path]);

  const rowId = (index: number) => `${id}_${index}`;
  const addId = `${id}-add`;
  const titleDomId = `${id}-title`;
  const canEdit = !readonly && !disabled && !!session && !!itemSchema;
  // Change mode: a row holding a marked answer opens (only its marked answers editable); adding
  // and removing rows needs the list itself marked.
  const changeMode = session?.changeMode;
  const rowPointer = (index: number) => `${listPointer}/${index}`;
  const canOpenRow = (index: number) =>
    canEdit ||
    (!!changeMode && !!session && !!itemSchema && changeMode.hasEditableWithin(rowPointer(index)));
  const rowRequested = (index: number) =>
    !!changeMode?.marked.some((mark) => mark.startsWith(`${rowPointer(index)}/`));

  const commit = (next: Row[], nextKeys: string[]) => {
    keys.expect(next, nextKeys);
    onChange(next, fieldPathId.path, undefined, id);
    onBlur(id, next);
  };

  const open = (index: number | null) => {
    if (session && itemSchema) setEditing(session.editListItem(listPointer, index, itemSchema));
  };

  const save = (next: unknown[]) => {
    if (!editing) return;
    const nextKeys = editing.isNew ? [...keys.current, newRowKey()] : keys.current;
    commit(next as Row[], nextKeys);
    setEditing(null);
    setFocusAfter({ target: rowId(editing.index) });
  };

  const cancel = () => {
    if (!editing) return;
    editing.close();
    setEditing(null);
    setFocusAfter({ target: editing.isNew ? addId : rowId(editing.index) });
  };

  const remove = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    commit(
      next,
      keys.current.filter((_, i) => i !== index),
    );
    setFocusAfter({ target: next.length === 0 ? addId : rowId(Math.min(index, next.length - 1)) });
  };

  const errorsShown = !!rawErrors && rawErrors.length > 0;
  const itemErrors = errorSchema as Record<string, ErrorSchema> | undefined;

  return (
    <Box id={id} role="group" aria-labelledby={titleDomId} sx={{ py: 1 }}>
      <Typography
        id={titleDomId}
        variant="subtitle1"
        component="p"
        color={errorsShown ? 'error' : undefined}
      >
        {label}
        {required ? <span aria-hidden> *</span> : null}
      </Typography>
      {rows.length > 0 ? (
        // A table wider than a phone's screen scrolls inside itself, so every row's buttons stay
        // reachable (the page's Paper clips what overflows it).
        <Box sx={{ overflowX: 'auto' }}>
          <ListTable aria-labelledby={titleDomId}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column.title} scope="col">
                    {column.title}
                  </th>
                ))}
                <th scope="col">
                  <span style={visuallyHidden}>{actionsTitle}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                <ListRow
                  key={keys.current[index]}
                  row={row}
                  editId={rowId(index)}
                  columns={columns}
                  hasErrors={hasErrors(itemErrors?.[index]) || rowsWithErrors.has(index)}
                  canEdit={canOpenRow(index)}
                  canRemove={canEdit}
                  changeRequested={rowRequested(index)}
                  editLabel={editLabel}
                  removeLabel={removeLabel}
                  rowErrorLabel={rowErrorLabel}
                  onEdit={() => open(index)}
                  onRemove={() => remove(index)}
                />
              ))}
            </tbody>
          </ListTable>
        </Box>
      ) : emptyText ? (
        <Typography variant="body2" color="textSecondary">
          {emptyText}
        </Typography>
      ) : null}
      <RuleValuesLine
        formContext={props.registry.formContext}
        pointer={listPointer}
        text={options.valuesText}
      />
      {canEdit ? (
        <Button
          id={addId}
          variant="outlined"
          sx={{ mt: 1 }}
          onClick={() => open(null)}
          aria-describedby={errorsShown ? errorId(id) : undefined}
        >
          {addLabel}
        </Button>
      ) : null}
      {editing && itemSchema ? (
        <ItemDialog
          key={editing.pointer}
          edit={editing}
          fieldProps={props}
          itemSchema={itemSchema}
          itemForm={itemForm}
          saveLabel={stringOption(options, 'saveLabel', 'Save')}
          cancelLabel={stringOption(options, 'cancelLabel', 'Cancel')}
          onSave={save}
          onCancel={cancel}
        />
      ) : null}
    </Box>
  );
}

let rowKeys = 0;
function newRowKey(): string {
  rowKeys += 1;
  return `row-${rowKeys}`;
}

/**
 * An identity per row, kept by position through this list's own edits (Save keeps a row's,
 * Remove drops one, Add appends one); rows replaced from elsewhere (Reset, a restored draft) get
 * new ones. React then keeps each row's element and focus with its person, not with its place.
 */
function useRowKeys(rows: Row[]) {
  const [state, setState] = useState<{ rows: unknown; keys: string[]; expected?: unknown[] }>(
    () => ({ rows, keys: rows.map(newRowKey) }),
  );
  let keys = state.keys;
  if (state.rows !== rows) {
    keys =
      state.expected && sameRows(state.expected, rows)
        ? state.keys
        : rows.length === state.keys.length
          ? state.keys
          : rows.map(newRowKey);
    setState({ rows, keys });
  }
  return {
    current: keys,
    /** The list is about to become `next`, its rows keyed `nextKeys`. */
    expect(next: unknown[], nextKeys: string[]) {
      setState({ rows: state.rows, keys: nextKeys, expected: next });
    },
  };
}

function sameRows(a: unknown[], b: unknown[]): boolean {
  return a.length === b.length && a.every((row, i) => row === b[i]);
}

interface ListRowProps {
  row: Row;
  editId: string;
  columns: Column[];
  hasErrors: boolean;
  canEdit: boolean;
  canRemove: boolean;
  /** Change mode: staff asked to change an answer of this row. */
  changeRequested: boolean;
  editLabel: string;
  removeLabel: string;
  rowErrorLabel: string;
  onEdit: () => void;
  onRemove: () => void;
}

/**
 * One row, of plain elements styled by ListTable; re-renders only when its own answers or marks
 * change (not on edits elsewhere).
 */
const ListRow = memo(
  function ListRow(props: ListRowProps) {
    const { row, editId, columns, hasErrors, canEdit, editLabel, removeLabel, rowErrorLabel } =
      props;
    const rowName = columns[0] ? cellText(row, columns[0]) : '';
    const badgeId = `${editId}-errors`;
    return (
      <tr>
        {columns.map((column, i) => (
          <td key={column.title}>
            {cellText(row, column)}
            {i === 0 && hasErrors ? (
              <Chip id={badgeId} label={rowErrorLabel} color="error" size="small" sx={{ ml: 1 }} />
            ) : null}
            {i === 0 && props.changeRequested ? (
              <Chip label="Change requested" color="warning" size="small" sx={{ ml: 1 }} />
            ) : null}
          </td>
        ))}
        <td className="actions">
          {canEdit ? (
            <>
              <button
                type="button"
                id={editId}
                className="action"
                onClick={props.onEdit}
                aria-label={`${editLabel} ${rowName}`.trim()}
                aria-describedby={hasErrors ? badgeId : undefined}
              >
                {editLabel}
              </button>
              {props.canRemove ? (
                <button
                  type="button"
                  className="action error"
                  onClick={props.onRemove}
                  aria-label={`${removeLabel} ${rowName}`.trim()}
                >
                  {removeLabel}
                </button>
              ) : null}
            </>
          ) : null}
        </td>
      </tr>
    );
  },
  // The callbacks are new on every render of the list but do the same thing for the same index.
  (a, b) =>
    a.row === b.row &&
    a.editId === b.editId &&
    a.columns.length === b.columns.length &&
    a.hasErrors === b.hasErrors &&
    a.canEdit === b.canEdit &&
    a.canRemove === b.canRemove &&
    a.changeRequested === b.changeRequested &&
    a.editLabel === b.editLabel &&
    a.removeLabel === b.removeLabel &&
    a.rowErrorLabel === b.rowErrorLabel,
);

interface ItemDialogProps {
  edit: ListItemEdit;
  /** The list field's props: the page's registry and the list's place in the answers. */
  fieldProps: FieldProps;
  itemSchema: RJSFSchema;
  /** The form whose uiSchema draws an item (`ui:options.form`). */
  itemForm: CompiledForm | undefined;
  saveLabel: string;
  cancelLabel: string;
  onSave: (rows: unknown[]) => void;
  onCancel: () => void;
}

const NO_OP = () => {};

/**
 * The dialog: one item of the page's session drawn with the page's own fields and widgets
 * (rjsf's SchemaField from the page's registry, so the page's validator resolves its conditions),
 * every message of a failed Save at once, focus on the first.
 */
function ItemDialog({
  edit,
  fieldProps,
  itemSchema,
  itemForm,
  saveLabel,
  cancelLabel,
  onSave,
  onCancel,
}: ItemDialogProps) {
  const { registry, fieldPathId, uiSchema: listUi } = fieldProps;
  const [uiSchema] = useState<UiSchema>(() => {
    const own = (listUi?.items as UiSchema | undefined) ?? itemForm?.uiSchema ?? {};
    return { ...own, 'ui:options': { ...(own['ui:options'] as object | undefined), label: false } };
  });
  const baseId = edit.id;
  const dialogTitleId = `${baseId}-dialog-title`;
  const hintId = `${baseId}-dialog-hint`;
  const heading = itemSchema.title ?? itemForm?.schema.title;
  const description = itemSchema.description;
  const [answers, setAnswers] = useState(() => edit.answers());
  const shown = useSyncExternalStore(edit.shownErrors.subscribe, edit.shownErrors.get);
  const whole = useSyncExternalStore(edit.itemErrors.subscribe, edit.itemErrors.get);
  const focusRequest = useSyncExternalStore(edit.focusRequests.subscribe, edit.focusRequests.get);
  /** While Discard is asked: the prompts of what would be lost. */
  const [discarding, setDiscarding] = useState<string[] | null>(null);
  const askDiscard = discarding !== null;
  // The dialog paints first (title and hint), the fields in the frame after: the dialog answers
  // the click at once (`npm run bench`: click → first paint), and focus then moves to the
  // first question.
  const [formShown, setFormShown] = useState(false);
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => afterNextPaint(() => setFormShown(true)), []);
  useEffect(() => {
    if (formShown) {
      content.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    }
  }, [formShown]);
  useEffect(() => {
    if (focusRequest === 0 || !content.current) return;
    const first = [...errorIds(shown ?? {}, baseId), ...(whole.length ? [`${baseId}-errors`] : [])]
      .map((errorFieldId) => errorFocusTarget(content.current!, errorFieldId))
      .filter((target): target is HTMLElement => !!target)
      .sort((a, b) =>
        a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
      )[0];
    first?.focus({ preventScroll: true });
    first?.scrollIntoView?.({ block: 'center' });
    // Only a new request moves focus; errors changing as the user types do not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest]);

  const SchemaField = registry.fields.SchemaField!;
  const itemPath = [...fieldPathId.path, edit.index];
  const save = () => {
    const rows = edit.save();
    if (rows) onSave(rows);
  };
  /** The element focused when Escape asked: focus goes back there on Keep editing. */
  const focusedBeforeAsking = useRef<HTMLElement | null>(null);
  const close = () => {
    // Escape (or the backdrop) while the question is asked answers it with the safe choice.
    if (askDiscard) {
      keepEditing();
      return;
    }
    // Text still being typed counts: leaving its field commits it (what blur does anyway).
    const active = document.activeElement;
    const inForm = active instanceof HTMLElement && !!content.current?.contains(active);
    focusedBeforeAsking.current = inForm ? active : null;
    if (inForm) active.blur();
    const losing = edit.changedPrompts();
    if (losing.length > 0) setDiscarding(losing);
    else onCancel();
  };
  // The safe choice of the question takes focus (the field that had it was left to commit it).
  const keepEditingButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (askDiscard) keepEditingButton.current?.focus();
  }, [askDiscard]);
  const keepEditing = () => {
    setDiscarding(null);
    (
      focusedBeforeAsking.current ??
      content.current?.querySelector<HTMLElement>('input, select, textarea')
    )?.focus();
  };

  return (
    <Dialog
      open
      onClose={close}
      // Focus goes back by our hand (to the row's Edit button, which may be new after an add).
      disableRestoreFocus
      maxWidth="md"
      fullWidth
      aria-labelledby={dialogTitleId}
      aria-describedby={description ? hintId : undefined}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          event.stopPropagation();
          save();
        }}
      >
        <DialogTitle id={dialogTitleId}>{heading}</DialogTitle>
        <DialogContent ref={content} sx={{ minHeight: 360 }}>
          {description ? (
            <Typography id={hintId} variant="body2" color="textSecondary" sx={{ mb: 1 }}>
              {description}
            </Typography>
          ) : null}
          {whole.length > 0 ? (
            <Alert id={`${baseId}-errors`} severity="error" tabIndex={-1} sx={{ mb: 2 }}>
              {whole.join(' ')}
            </Alert>
          ) : null}
          {formShown ? (
            <SchemaField
              name={String(edit.index)}
              schema={itemSchema}
              uiSchema={uiSchema}
              fieldPathId={{ $id: baseId, path: itemPath }}
              formData={answers}
              errorSchema={shown}
              registry={registry}
              required={false}
              disabled={false}
              readonly={false}
              onChange={(value, path) => {
                edit.change(path.slice(itemPath.length), value);
                setAnswers(edit.answers());
              }}
              onBlur={(blurredId) => edit.touch(blurredId)}
              onFocus={NO_OP}
            />
          ) : null}
        </DialogContent>
        {askDiscard ? (
          // Asked in place, where the buttons were: the dialog stays one dialog.
          <DialogActions
            role="group"
            aria-labelledby={`${baseId}-discard-title`}
            sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}
          >
            <DialogContentText id={`${baseId}-discard-title`} sx={{ flex: '1 1 100%' }}>
              {`Discard your answers? What you typed for this ${(heading ?? 'item').toLowerCase()} has not been saved: ${(discarding ?? []).join(', ')}.`}
            </DialogContentText>
            <Button
              ref={keepEditingButton}
              type="button"
              onClick={keepEditing}
              onKeyDown={(event) => {
                // Enter clicks on keydown; focus then moves back into a field, whose keypress
                // would submit the form (save the item) in the same keystroke (issue 38 §4).
                if (event.key !== 'Enter') return;
                event.preventDefault();
                keepEditing();
              }}
            >
              Keep editing
            </Button>
            <Button type="button" color="error" onClick={onCancel}>
              Discard
            </Button>
          </DialogActions>
        ) : (
          <DialogActions sx={{ px: 3, pb: 2 }}>
            <Button type="button" onClick={onCancel}>
              {cancelLabel}
            </Button>
            <Button type="submit" variant="contained">
              {saveLabel}
            </Button>
          </DialogActions>
        )}
      </form>
    </Dialog>
  );
}
