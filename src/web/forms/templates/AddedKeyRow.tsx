import { createContext, useContext, useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { buttonId, getUiOptions, type Registry, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import { keyRefusal, namedKeys, type KeyRefusal } from '../../../shared/forms/walk/addedKeys';
import type { JsonSchema } from '../../../shared/forms/model/schemaTypes';
import { escapePointerKey } from '../../../shared/forms/model/pointer';
import { engineOf } from '../engine';

/** The object whose added answers are drawn below (ObjectField provides it). */
interface AddedKeysScope {
  /** The object's schema, references and combinators resolved. */
  schema: RJSFSchema;
  /** The keys it holds now. */
  keys: readonly string[];
  /** The length of the object's path (its rows are one deeper). */
  depth: number;
  /** The object's pointer. */
  pointer: string;
  /** Gives the unnamed row (UNNAMED_KEY) its key: a new answer under it. */
  nameRow: (key: string) => void;
}

export const AddedKeysContext = createContext<AddedKeysScope | undefined>(undefined);

/**
 * The key of a row added before it has a name (ObjectField: no key the form accepts could be
 * made). Its key box is empty and its answer not drawn until the person names a key the form
 * accepts, so nothing is ever kept or sent under it.
 */
export const UNNAMED_KEY = '__unnamed__';

interface AddedKeyRowProps {
  children: ReactNode;
  /** The answer's element id. */
  id: string;
  /** The key the answer is kept under. */
  fieldKey: string;
  schema: RJSFSchema;
  uiSchema?: UiSchema;
  registry: Registry;
  disabled?: boolean;
  readonly?: boolean;
  onKeyRename: (key: string) => void;
  onRemoveProperty: () => void;
}

/**
 * One answer added to an object (`patternProperties`, `additionalProperties`): its key, its
 * answer and a remove button on one row. A key is checked before it is taken: one the form
 * refuses (breaks the pattern, is not among `propertyNames`, names a declared question or another
 * row) is not taken, and the form's message for it is said at the row, so the answer is never
 * kept under a key the answers would lose. Where `propertyNames` lists the keys, the key is a
 * choice among them.
 */
export function AddedKeyRow(props: AddedKeyRowProps) {
  const { children, id, fieldKey: key, disabled, readonly, registry } = props;
  const { onKeyRename, onRemoveProperty, uiSchema, schema } = props;
  const scope = useContext(AddedKeysContext);
  const pointerOf = (_id: string, name: string) =>
    scope ? `${scope.pointer}/${escapePointerKey(name)}` : undefined;
  const parent = (scope?.schema ?? {}) as JsonSchema;
  const unnamed = key === UNNAMED_KEY;
  // A row not named yet says what a key must be until it has one.
  const [refused, setRefused] = useState<string | undefined>(() =>
    unnamed ? refusalMessage(keyRefusal(parent, '') ?? 'taken', '', parent, registry) : undefined,
  );
  // Remounts the key box on a refusal: it shows the key the answer is kept under.
  const [attempt, setAttempt] = useState(0);
  const prompt = getUiOptions(uiSchema).title ?? schema.title ?? '';
  const keyLabel = prompt ? `Key for ${prompt}` : 'Key';
  const listed = namedKeys(parent);
  const rename = (next: string) => {
    if (next === key || (unnamed && next === '')) return;
    const refusal = next === '' || scope?.keys.includes(next) ? 'taken' : keyRefusal(parent, next);
    if (refusal) {
      setRefused(refusalMessage(refusal, next, parent, registry));
      setAttempt((n) => n + 1);
      return;
    }
    setRefused(undefined);
    if (unnamed) {
      scope?.nameRow(next);
      return;
    }
    // A row not answered yet keeps its mark under its new key (see ObjectWithAddedKeys).
    const marks = engineOf(registry)?.added;
    const at = pointerOf(id, key);
    if (marks && at && marks.has(at)) {
      marks.remove(at);
      marks.add(
        `${at.slice(0, at.length - escapePointerKey(key).length)}${escapePointerKey(next)}`,
      );
    }
    onKeyRename(next);
  };
  const keyBox = listed ? (
    <TextField
      select
      fullWidth
      id={`${id}-key`}
      label={keyLabel}
      value={key}
      disabled={disabled || readonly}
      error={refused !== undefined}
      helperText={refused}
      onChange={(event) => rename(event.target.value)}
    >
      {[...new Set([key, ...listed])].map((name) => (
        <MenuItem key={name} value={name} disabled={name !== key && scope?.keys.includes(name)}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  ) : (
    <TextField
      key={attempt}
      fullWidth
      id={`${id}-key`}
      label={keyLabel}
      defaultValue={unnamed ? '' : key}
      disabled={disabled || readonly}
      error={refused !== undefined}
      helperText={refused}
      onBlur={readonly ? undefined : (event) => rename(event.target.value.trim())}
    />
  );
  return (
    <div style={ROW}>
      <div style={KEY}>{keyBox}</div>
      <div style={ANSWER}>{unnamed ? null : children}</div>
      <Button
        id={buttonId(id, 'remove')}
        className="rjsf-object-property-remove"
        disabled={disabled || readonly}
        onClick={() => {
          const at = pointerOf(id, key);
          if (at) engineOf(registry)?.added.remove(at);
          onRemoveProperty();
        }}
        aria-label={unnamed ? 'Remove' : `Remove ${key}`}
        sx={{ mt: 1 }}
      >
        Remove
      </Button>
    </div>
  );
}

/**
 * The form's own message for the keyword that refuses a key (the object's `errorMessage`, else
 * the form's `x-messages`), the engine's plain words otherwise.
 */
function refusalMessage(
  refusal: KeyRefusal | 'taken',
  key: string,
  parent: JsonSchema,
  registry: Registry,
): string {
  if (refusal === 'taken') {
    return key === '' ? 'Give this answer a key.' : `"${key}" is already used: choose another key.`;
  }
  if (refusal === 'declared') return `"${key}" is a question of its own: choose another key.`;
  const own = parent.errorMessage;
  const ownMessage =
    typeof own === 'string'
      ? own
      : own && typeof own === 'object'
        ? (own as Record<string, unknown>)[refusal]
        : undefined;
  const defaults = (registry.rootSchema as JsonSchema)['x-messages'];
  const message = typeof ownMessage === 'string' ? ownMessage : defaults?.[refusal];
  return message ?? `"${key}" is not a key this form accepts.`;
}

const ROW = { display: 'flex', alignItems: 'flex-start', gap: 16 } as const;
const KEY = { flex: 1, minWidth: 0 } as const;
const ANSWER = { flex: 1, minWidth: 0 } as const;
