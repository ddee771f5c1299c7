import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type Form from '@rjsf/core';
import { withTheme, type IChangeEvent } from '@rjsf/core';
import { Theme } from '@rjsf/mui';
import type { ErrorSchema, UiSchema } from '@rjsf/utils';
import { draftSafeAnswers } from '../../shared/forms/walk/answers';
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import { ValueStore } from './engine';
import { errorFocusTarget, errorIds, mergeErrorSchemas } from './errors';
import { REGISTRY_FIELDS as FIELDS } from './fields/registry';
import { FormStatusStore, useFormStatus, type FormStatus } from './formStatus';
import { browserDrafts, DEFAULTS_BEHAVIOUR, FormSession } from './session';
import { BaseInputTemplate } from './templates/BaseInputTemplate';
import { FieldTemplate } from './templates/FieldTemplate';
import { ObjectFieldTemplate } from './templates/ObjectFieldTemplate';
import { TitleFieldTemplate } from './templates/TitleFieldTemplate';
import { REGISTRY_WIDGETS } from './widgets/registry';
import { fromPointer } from '../../shared/forms/model/pointer';

export type { Answers };
/** The chosen files by the JSON pointer of their answer ('/photoId'). */
export type FilesByPointer = Record<string, File>;

const ThemedForm = withTheme<Answers>(Theme);
const TEMPLATES = { BaseInputTemplate, FieldTemplate, ObjectFieldTemplate, TitleFieldTemplate };
/**
 * What a SchemaForm draws: the compiled form (the form opens its own session of it), or the
 * session that holds the answers (a wizard's, shared by its steps).
 */
export type SchemaFormSource =
  | {
      /** The compiled form drawn; the draft key is 'clearing.draft.<form id>'. */
      form: CompiledForm;
      session?: undefined;
    }
  | { session: FormSession; form?: undefined };

export type SchemaFormProps = SchemaFormSource & SchemaFormOptions;

interface SchemaFormOptions {
  /** Initial answers; a saved draft is laid over them (with `form`). */
  formData?: Answers;
  /** The page shows the form's title as its heading: the form does not repeat it (with `form`). */
  ownHeading?: boolean;
  /**
   * Called with the answers (those hidden by a condition left out) and the chosen files. Return a
   * promise: the form counts as submitting until it settles, and a rejection keeps the draft (the
   * page shows the failure).
   */
  onSubmit: (
    answers: Answers,
    files: FilesByPointer,
    /** Pointers whose file the server already holds (their bytes are not sent again). */
    held?: ReadonlySet<string>,
  ) => void | Promise<void>;
  /** Review mode: every answer shown, nothing editable, no draft kept. */
  readonly?: boolean;
  disabled?: boolean;
  /** Errors from elsewhere (the server), shown whether or not the field was touched. */
  extraErrors?: ErrorSchema<Answers>;
  /** Keep a draft in localStorage (default: unless readonly). */
  keepDraft?: boolean;
  /**
   * What of the answers a draft may hold. Defaults to the engine's `draftSafeAnswers` (files,
   * agreements and `x-sensitive` answers left out).
   */
  draftFilter?: (answers: Answers) => Answers;
  onStatusChange?: (status: FormStatus) => void;
  /** Called after each committed change (a pause in typing, a blur, a choice) with all answers. */
  onAnswersChange?: (answers: Answers) => void;
  /** The submit area inside the <form>; by default a submit button enabled by `canSubmit`. */
  children?: ReactNode | ((status: FormStatus) => ReactNode);
  className?: string;
  /** The prefix of the fields' ids ('root'); a form drawn inside another (a dialog) needs its own. */
  idPrefix?: string;
}

/**
 * A form rendered from its JSON Schema and uiSchema with rjsf, the MUI theme and our widgets.
 *
 * Unlike rjsf's `liveValidate`, a field shows its errors only once the user has left it (or tried
 * to submit): answers are validated after each commit, but the errors handed to rjsf are filtered
 * to touched fields. Keystrokes stay inside the widgets, and this component re-renders only when
 * the shown errors change, so typing re-renders one input, not the form.
 */
export function SchemaForm(props: SchemaFormProps) {
  const {
    formData,
    readonly = false,
    disabled = false,
    extraErrors,
    keepDraft = !readonly,
    draftFilter,
    children,
    className,
    idPrefix = 'root',
  } = props;

  // The page's session (a wizard's, shared by its steps), or this form's own.
  const [session] = useState(
    () =>
      props.session ??
      new FormSession({
        form: props.form,
        ownHeading: props.ownHeading,
        initial: formData,
        idPrefix,
        // Without a page's session there is no wizard around it: every question on one page.
        onePage: true,
        persistence: keepDraft
          ? browserDrafts(
              props.form.id,
              draftFilter ?? ((answers) => draftSafeAnswers(props.form, answers)),
            )
          : undefined,
      }),
  );
  const { engine, status: statusStore, schema, uiSchema, validator } = session;
  const [initial] = useState<Answers>(() => session.answers());
  // The page's submit area reaches StatusArea through a store, never through rjsf's props: rjsf's
  // Form skips re-rendering when only functions changed (its deepEquals counts any two functions
  // equal), so a render function closing over new page state (a failure alert) would never show.
  const [submitAreaSlot] = useState(() => new ValueStore<SchemaFormProps['children']>(children));
  useLayoutEffect(() => submitAreaSlot.set(children));
  // A wizard's step: the root object draws only its sections (see ObjectFieldTemplate).
  const [step] = useState(() => session.currentStep());
  // The dialog list draws its item with this registry's own fields (a view of this session:
  // FormSession.editListItem), so nothing but the engine, session and step travels here.
  const formContext = useMemo(() => ({ engine, session, step }), [engine, session, step]);
  const formRef = useRef<Form<Answers>>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  const shownErrors = useSyncExternalStore(session.shownErrors.subscribe, session.shownErrors.get);
  const focusRequest = useSyncExternalStore(
    session.focusRequests.subscribe,
    session.focusRequests.get,
  );
  const [focusBaseline] = useState(focusRequest);

  useEffect(() => () => session.flush(), [session]);

  const handleChange = useCallback(
    (event: IChangeEvent<Answers>) => session.commit(event.formData ?? {}),
    [session],
  );
  const handleBlur = useCallback((id: string) => session.touch(id), [session]);
  const handleFocus = useCallback(() => session.focused(), [session]);

  const handleSubmit = useCallback(() => {
    // A wizard's step moves on (Enter in a field, or its next button); a form submits.
    if (session.steps && !session.isLastStep()) session.next();
    else {
      void session.submit((answers, files, held) => latest.current.onSubmit(answers, files, held));
    }
  }, [session]);

  // Widgets write other answers through the engine (rjsf applies each as a change of that field).
  useEffect(
    () =>
      engine.writer.connect((pointer, value) =>
        // rjsf types the value as the whole form's data, though it sets the one field
        formRef.current?.setFieldValue(fromPointer(pointer), value as Answers),
      ),
    [engine],
  );

  // The status of the initial answers (defaults included).
  useEffect(() => {
    session.commit(formRef.current?.state.formData ?? session.answers());
  }, [session]);

  useEffect(() => {
    latest.current.onStatusChange?.(statusStore.get());
    return statusStore.subscribe(() => latest.current.onStatusChange?.(statusStore.get()));
  }, [statusStore]);

  useEffect(
    () => engine.answers.subscribe(() => latest.current.onAnswersChange?.(session.answers())),
    [engine, session],
  );

  useEffect(() => {
    if (focusRequest > focusBaseline && shownErrors) {
      focusFirstError(containerRef.current, shownErrors, idPrefix);
    }
  }, [focusRequest, focusBaseline, shownErrors, idPrefix]);

  const errors = useMemo(
    () => mergeErrorSchemas(shownErrors, extraErrors),
    [shownErrors, extraErrors],
  );

  const hidesSubmitArea = readonly && children === undefined;
  const submitArea = useMemo(
    () =>
      hidesSubmitArea ? (
        <></>
      ) : (
        <StatusArea store={statusStore} slot={submitAreaSlot} uiSchema={uiSchema} />
      ),
    [hidesSubmitArea, statusStore, submitAreaSlot, uiSchema],
  );

  const form = useMemo(
    () => (
      <ThemedForm
        ref={formRef}
        schema={schema}
        uiSchema={uiSchema}
        validator={validator}
        initialFormData={initial}
        idPrefix={idPrefix}
        formContext={formContext}
        widgets={REGISTRY_WIDGETS}
        templates={TEMPLATES}
        fields={FIELDS}
        experimental_defaultFormStateBehavior={DEFAULTS_BEHAVIOUR}
        readonly={readonly}
        disabled={disabled}
        extraErrors={errors}
        onChange={handleChange}
        onBlur={handleBlur}
        onFocus={handleFocus}
        onSubmit={handleSubmit}
        noValidate
        noHtml5Validate
        omitExtraData
        // Answers a condition hides are dropped as soon as it turns (docs/decisions.md, Hidden
        // answers), so drafts and the payload never carry stale text.
        liveOmit="onChange"
        showErrorList={false}
      >
        {submitArea}
      </ThemedForm>
    ),
    [
      schema,
      uiSchema,
      validator,
      initial,
      idPrefix,
      formContext,
      readonly,
      disabled,
      errors,
      handleChange,
      handleBlur,
      handleFocus,
      handleSubmit,
      submitArea,
    ],
  );

  return (
    <Box ref={containerRef} className={className}>
      {form}
    </Box>
  );
}

function StatusArea({
  store,
  slot,
  uiSchema,
}: {
  store: FormStatusStore;
  slot: ValueStore<SchemaFormProps['children']>;
  uiSchema?: UiSchema;
}) {
  const status = useFormStatus(store);
  const render = useSyncExternalStore(slot.subscribe, slot.get);
  if (typeof render === 'function') return <>{render(status)}</>;
  if (render !== undefined) return <>{render}</>;
  const options = uiSchema?.['ui:submitButtonOptions'] as { submitText?: string } | undefined;
  return (
    <Box sx={{ mt: 3 }}>
      <Button type="submit" variant="contained" disabled={!status.canSubmit}>
        {options?.submitText ?? 'Submit'}
      </Button>
    </Box>
  );
}

/** Moves focus to the first field with an error on the page (its input, or the button that operates it). */
function focusFirstError(
  container: HTMLElement | null,
  errorSchema: ErrorSchema,
  idPrefix: string,
) {
  if (!container) return;
  const targets = errorIds(errorSchema, idPrefix)
    .map((id) => errorFocusTarget(container, id))
    .filter((target): target is HTMLElement => !!target)
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  targets[0]?.focus();
}
