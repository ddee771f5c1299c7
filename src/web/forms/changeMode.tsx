/**
 * Change mode (issue 17): a submitted registration reopened because staff asked for changes,
 * question by question. The session carries it; the engine's fields derive from it what is
 * editable (the marked questions, what is inside them, and what their change makes appear; with
 * a note alone, everything) and which question shows the reviewer's note. No per-form code.
 * What is editable is the model's (changeModeModel.ts, which the session holds); this module
 * draws it.
 */
import { useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { getDefaultRegistry } from '@rjsf/core';
import { getUiOptions, type FieldProps, type Registry } from '@rjsf/utils';
import { toPointer } from '../../shared/forms/model/pointer';
import type { ChangeMode, RequestedChangeView } from './changeModeModel';
import { reviewRow, reviewRowAt } from './SchemaReview';
import type { Answers, FormSession } from './session';

/** The change mode of the form a field belongs to (the session in rjsf's formContext). */
export function changeModeOf(registry: Registry): ChangeMode | undefined {
  const context: unknown = registry.formContext;
  if (context && typeof context === 'object' && 'session' in context) {
    const session = (context as { session?: { changeMode?: ChangeMode } }).session;
    return session?.changeMode;
  }
  return undefined;
}

/**
 * rjsf's SchemaField with change mode's read-only rule: each field decides for itself (a marked
 * answer inside a read-only affiliated person stays editable). Outside change mode it is rjsf's.
 */
const DefaultSchemaField = getDefaultRegistry().fields.SchemaField as ComponentType<FieldProps>;

export function ChangeModeSchemaField(props: FieldProps) {
  const changeMode = changeModeOf(props.registry);
  if (!changeMode) return <DefaultSchemaField {...props} />;
  const pointer = toPointer(props.fieldPathId.path.map(String));
  // An answer that cannot change, with nothing inside it that can, reads as the review draws it:
  // text, not an input that takes focus and silently ignores typing (issue 26 §2).
  if (
    pointer !== '' &&
    !changeMode.hasEditableWithin(pointer) &&
    getUiOptions(props.uiSchema).widget !== 'hidden'
  ) {
    return (
      <ReadOnlyAnswer registry={props.registry} pointer={pointer}>
        <DefaultSchemaField {...props} readonly />
      </ReadOnlyAnswer>
    );
  }
  return <DefaultSchemaField {...props} readonly={!changeMode.isEditable(pointer)} />;
}

/**
 * An answer drawn as the review draws it (its prompt, the answer as text, an SSN by its last
 * four), from the answers the form shows now (a list item's in its dialog). `children` is drawn
 * instead where the review has no row for it.
 */
function ReadOnlyAnswer({
  registry,
  pointer,
  children,
}: {
  registry: Registry;
  pointer: string;
  children: ReactNode;
}) {
  const session = sessionOfContext(registry);
  const answers = useSyncExternalStore(
    session ? session.engine.answers.subscribe : noSubscription,
    () => session?.engine.answers.get(),
  );
  const row =
    session && answers && typeof answers === 'object'
      ? reviewRowAt(session, answers as Answers, pointer)
      : undefined;
  if (!row) return <>{children}</>;
  return (
    <Box component="dl" data-read-only-answer={pointer} sx={{ m: 0 }}>
      {reviewRow(row)}
    </Box>
  );
}

const noSubscription = () => () => {};

/** The session in rjsf's formContext (read without importing the session module: no cycle). */
function sessionOfContext(registry: Registry): FormSession | undefined {
  const context: unknown = registry.formContext;
  if (context && typeof context === 'object' && 'session' in context) {
    return (context as { session?: FormSession }).session;
  }
  return undefined;
}

/** The reviewer's note above a marked question, the question outlined. */
export function RequestedChangeNote({
  request,
  children,
}: {
  request: RequestedChangeView;
  children: ReactNode;
}) {
  return (
    <Box
      data-requested-change={request.path}
      sx={{ border: 2, borderColor: 'warning.main', borderRadius: 1, p: 1.5, my: 1 }}
    >
      <Alert severity="warning" icon={false} sx={{ mb: 1.5, py: 0 }}>
        <Typography variant="body2">
          <strong>Change requested:</strong> {request.note || 'Please review this answer.'}
        </Typography>
      </Alert>
      {children}
    </Box>
  );
}
