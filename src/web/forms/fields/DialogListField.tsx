import { memo, useEffect, useRef, useState, type ComponentType } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  errorId,
  getUiOptions,
  type ErrorSchema,
  type FieldProps,
  type RJSFSchema,
} from '@rjsf/utils';
import type { CompiledForm } from '../../../shared/forms/model/compiledForm';
import { createRjsfValidator } from '../../../shared/forms/rjsfErrors';
import { validateAnswers } from '../../../shared/forms/validateAnswers';
import { formComponentOf } from '../engine';
import type { SchemaFormProps } from '../SchemaForm';
import type { Answers, FormSession } from '../session';
import { stringOption } from '../widgets/a11y';

/** One column of the list: its heading and the answers of a row it shows, joined by a space. */
interface Column {
  title: string;
  fields: string[];
  /** Appended to a non-empty value ('%'). */
  suffix?: string;
}

type Row = Record<string, unknown>;

/**
 * The form the dialog draws: one the page's compiled form carries (`nested`, compiled with it:
 * scripts/formValidatorsPlugin.ts), found through the session in rjsf's formContext.
 */
function nestedForm(formContext: unknown, formId: string): CompiledForm | undefined {
  const session = (formContext as { session?: FormSession } | undefined)?.session;
  return formId ? session?.form?.nested[formId] : undefined;
}

/** A row's own validity under the dialog's form (cached by row object: rows are immutable). */
const warned = new Set<string>();
function warnOnce(formId: string) {
  if (warned.has(formId)) return;
  warned.add(formId);
  console.error(`No validator for the ${formId} form: the list cannot add or edit rows`);
}

const rowValidity = new WeakMap<object, boolean>();
function rowIsValid(form: CompiledForm, row: Row): boolean {
  let valid = rowValidity.get(row);
  if (valid === undefined) {
    valid = validateAnswers(form, row).valid;
    rowValidity.set(row, valid);
  }
  return valid;
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

/** What the dialog is doing: adding a new row or editing row `index`; `session` keys its form. */
interface Editing {
  index: number | null;
  session: number;
}

/**
 * An array of objects drawn as a table, one row per item (the columns of `ui:options.columns`),
 * each row with an error badge when it has errors, Edit and Remove buttons, and an Add button.
 * Add and Edit open the form named by `ui:options.form` (its own schema, uiSchema and validator:
 * the affiliated person) in a dialog; Save validates it there with that form's messages and
 * writes the row only when it is valid; Cancel (or Escape) leaves the list as it was. Focus goes
 * into the dialog and comes back to the row's Edit button (the Add button after a cancelled add).
 *
 * A row is marked when the business form shows errors inside it (after a submit attempt), or when
 * it fails its own form (a draft restored without its sensitive answers, say).
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
    registry,
  } = props;
  const options = getUiOptions(uiSchema) as Record<string, unknown>;
  const formOption = typeof options.form === 'string' ? options.form : '';
  const itemForm = nestedForm(props.registry.formContext, formOption);
  const SchemaForm = formComponentOf(registry);
  const ready = !!itemForm && !!SchemaForm;
  if (formOption && !ready) warnOnce(formOption);
  const rows: Row[] = Array.isArray(formData) ? (formData as Row[]) : [];
  const id = fieldPathId.$id;
  const itemSchema = (
    schema.items && typeof schema.items === 'object' ? schema.items : undefined
  ) as RJSFSchema | undefined;
  const columns = columnsOf(options, itemSchema);
  const label = (options.title as string | undefined) ?? schema.title ?? title ?? name;
  const addLabel = stringOption(options, 'addLabel', 'Add');
  const editLabel = stringOption(options, 'editLabel', 'Edit');
  const removeLabel = stringOption(options, 'removeLabel', 'Remove');
  const rowErrorLabel = stringOption(options, 'rowErrorLabel', 'Has errors');
  const emptyText = typeof options.emptyText === 'string' ? options.emptyText : undefined;
  const actionsTitle = stringOption(options, 'actionsTitle', 'Actions');

  const [editing, setEditing] = useState<Editing | null>(null);
  const sessions = useRef(0);
  /** Where focus goes once the dialog has closed (or a row was removed). */
  const [focusAfter, setFocusAfter] = useState<{ target: string } | null>(null);

  useEffect(() => {
    if (!focusAfter) return;
    document.getElementById(focusAfter.target)?.focus();
  }, [focusAfter]);

  const rowId = (index: number) => `${id}_${index}`;
  const addId = `${id}-add`;
  const titleDomId = `${id}-title`;
  const canEdit = !readonly && !disabled && ready;

  const commit = (next: Row[]) => {
    onChange(next, fieldPathId.path, undefined, id);
    onBlur(id, next);
  };

  const open = (index: number | null) => {
    sessions.current += 1;
    setEditing({ index, session: sessions.current });
  };

  const close = (target: string) => {
    setEditing(null);
    setFocusAfter({ target });
  };

  const save = (answers: Answers) => {
    if (!editing) return;
    const index = editing.index ?? rows.length;
    const next =
      editing.index === null
        ? [...rows, answers]
        : rows.map((row, i) => (i === index ? answers : row));
    commit(next);
    close(rowId(index));
  };

  const cancel = () => {
    if (!editing) return;
    close(editing.index === null ? addId : rowId(editing.index));
  };

  const remove = (index: number) => {
    const next = rows.filter((_, i) => i !== index);
    commit(next);
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
        <Table size="small" aria-labelledby={titleDomId}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.title}>{column.title}</TableCell>
              ))}
              <TableCell>
                <Box component="span" sx={VISUALLY_HIDDEN}>
                  {actionsTitle}
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row, index) => (
              <ListRow
                // Rows have no identity of their own; the index is the answer's position.
                key={index}
                row={row}
                editId={rowId(index)}
                columns={columns}
                hasErrors={
                  hasErrors(itemErrors?.[index]) || (!!itemForm && !rowIsValid(itemForm, row))
                }
                canEdit={canEdit}
                editLabel={editLabel}
                removeLabel={removeLabel}
                rowErrorLabel={rowErrorLabel}
                onEdit={() => open(index)}
                onRemove={() => remove(index)}
              />
            ))}
          </TableBody>
        </Table>
      ) : emptyText ? (
        <Typography variant="body2" color="textSecondary">
          {emptyText}
        </Typography>
      ) : null}
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
      {itemForm && SchemaForm && editing ? (
        <ItemDialog
          key={editing.session}
          SchemaForm={SchemaForm}
          form={itemForm}
          initial={editing.index === null ? undefined : rows[editing.index]}
          saveLabel={stringOption(options, 'saveLabel', 'Save')}
          cancelLabel={stringOption(options, 'cancelLabel', 'Cancel')}
          onSave={save}
          onCancel={cancel}
        />
      ) : null}
    </Box>
  );
}

const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

interface ListRowProps {
  row: Row;
  editId: string;
  columns: Column[];
  hasErrors: boolean;
  canEdit: boolean;
  editLabel: string;
  removeLabel: string;
  rowErrorLabel: string;
  onEdit: () => void;
  onRemove: () => void;
}

/** One row; re-renders only when its own answers or marks change (not on edits elsewhere). */
const ListRow = memo(
  function ListRow(props: ListRowProps) {
    const { row, editId, columns, hasErrors, canEdit, editLabel, removeLabel, rowErrorLabel } =
      props;
    const rowName = columns[0] ? cellText(row, columns[0]) : '';
    const badgeId = `${editId}-errors`;
    return (
      <TableRow>
        {columns.map((column, i) => (
          <TableCell key={column.title}>
            {cellText(row, column)}
            {i === 0 && hasErrors ? (
              <Chip id={badgeId} label={rowErrorLabel} color="error" size="small" sx={{ ml: 1 }} />
            ) : null}
          </TableCell>
        ))}
        <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
          {canEdit ? (
            <>
              <Button
                id={editId}
                size="small"
                onClick={props.onEdit}
                aria-label={`${editLabel} ${rowName}`.trim()}
                aria-describedby={hasErrors ? badgeId : undefined}
              >
                {editLabel}
              </Button>
              <Button
                size="small"
                color="error"
                onClick={props.onRemove}
                aria-label={`${removeLabel} ${rowName}`.trim()}
              >
                {removeLabel}
              </Button>
            </>
          ) : null}
        </TableCell>
      </TableRow>
    );
  },
  // The callbacks are new on every render of the list but do the same thing for the same index.
  (a, b) =>
    a.row === b.row &&
    a.editId === b.editId &&
    a.columns.length === b.columns.length &&
    a.hasErrors === b.hasErrors &&
    a.canEdit === b.canEdit &&
    a.editLabel === b.editLabel &&
    a.removeLabel === b.removeLabel &&
    a.rowErrorLabel === b.rowErrorLabel,
);

interface ItemDialogProps {
  /** The page's form component (from the registry's formContext). */
  SchemaForm: ComponentType<SchemaFormProps>;
  form: CompiledForm;
  initial: Row | undefined;
  saveLabel: string;
  cancelLabel: string;
  onSave: (answers: Answers) => void;
  onCancel: () => void;
}

/** The dialog's form: the named form in SchemaForm, no draft of its own (the list's form keeps one). */
function ItemDialog({
  SchemaForm,
  form,
  initial,
  saveLabel,
  cancelLabel,
  onSave,
  onCancel,
}: ItemDialogProps) {
  const formId = form.id;
  const [uiSchema] = useState(() => ({
    ...form.uiSchema,
    'ui:options': { ...(form.uiSchema['ui:options'] as object | undefined), label: false },
  }));
  const dialogTitleId = `${formId}-dialog-title`;
  const hintId = `${formId}-dialog-hint`;
  const schema = form.schema as RJSFSchema;
  const description = schema.description ?? referenced(schema)?.description;
  // The dialog paints first (title and hint), the form in the frame after: the dialog answers
  // the click at once (`npm run bench`: click → first paint), and focus then moves to the
  // form's first question.
  const [formShown, setFormShown] = useState(false);
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => afterNextPaint(() => setFormShown(true)), []);
  useEffect(() => {
    if (formShown) {
      content.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    }
  }, [formShown]);
  return (
    <Dialog
      open
      onClose={onCancel}
      // Focus goes back by our hand (to the row's Edit button, which may be new after an add).
      disableRestoreFocus
      maxWidth="md"
      fullWidth
      aria-labelledby={dialogTitleId}
      aria-describedby={description ? hintId : undefined}
    >
      <DialogTitle id={dialogTitleId}>{schema.title}</DialogTitle>
      <DialogContent ref={content} sx={{ minHeight: 360 }}>
        {description ? (
          <Typography id={hintId} variant="body2" color="textSecondary" sx={{ mb: 1 }}>
            {description}
          </Typography>
        ) : null}
        {formShown ? (
          <SchemaForm
            formId={`${formId}-dialog`}
            keepDraft={false}
            schema={schema}
            uiSchema={uiSchema}
            validator={createRjsfValidator(form)}
            form={form}
            formData={initial}
            idPrefix={`${formId}-dialog`}
            onSubmit={(answers) => onSave(answers)}
          >
            <DialogActions sx={{ px: 0, pt: 3 }}>
              <Button type="button" onClick={onCancel}>
                {cancelLabel}
              </Button>
              <Button type="submit" variant="contained">
                {saveLabel}
              </Button>
            </DialogActions>
          </SchemaForm>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

/** Runs `callback` once the browser has painted the current frame; returns a cancel function. */
function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** The definition a bundled form's root points to (`"$ref": "#/$defs/affiliatedPerson"`). */
function referenced(schema: RJSFSchema): RJSFSchema | undefined {
  const name = schema.$ref?.match(/^#\/\$defs\/(.+)$/)?.[1];
  const definition = name
    ? (schema.$defs as Record<string, unknown> | undefined)?.[name]
    : undefined;
  return definition && typeof definition === 'object' ? (definition as RJSFSchema) : undefined;
}
