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
import {
  createSchemaUtils,
  type ErrorSchema,
  type ErrorTransformer,
  type RJSFSchema,
  type UiSchema,
  type ValidatorType,
} from '@rjsf/utils';
import { draftSafeAnswers } from '../../shared/forms/answers';
import { availableFormIds, isFormId } from '../../shared/forms/loadForm';
import { clearDraft, createDraftSaver, draftSafe, loadDraft } from './drafts';
import { createFormEngine, parsePointer, ValueStore } from './engine';
import { collapseWidgetErrors, errorIds, filterErrorSchema, mergeErrorSchemas } from './errors';
import { REGISTRY_FIELDS as FIELDS } from './fields/registry';
import { FormStatusStore, useFormStatus, type FormStatus } from './formStatus';
import { BaseInputTemplate } from './templates/BaseInputTemplate';
import { FieldTemplate } from './templates/FieldTemplate';
import { ObjectFieldTemplate } from './templates/ObjectFieldTemplate';
import { REGISTRY_WIDGETS } from './widgets/registry';

export type Answers = Record<string, unknown>;
/** The chosen files by the JSON pointer of their answer ('/photoId'). */
export type FilesByPointer = Record<string, File>;

const ThemedForm = withTheme<Answers>(Theme);
const TEMPLATES = { BaseInputTemplate, FieldTemplate, ObjectFieldTemplate };
/**
 * Defaults are the schema's `default`s only: a `const: true` agreement starts unsigned (rjsf
 * would pre-fill consts) and an unanswered file is absent, not `{}` (so "required" fires).
 */
const DEFAULTS_BEHAVIOUR = {
  constAsDefaults: 'never',
  // A yes/no question starts unanswered: rjsf would pre-answer every required boolean "No".
  requiredBooleanDefault: 'skip',
  emptyObjectFields: 'skipEmptyDefaults',
  // A list starts empty: 'at least one person' is a rule to meet, not a blank row to fill.
  arrayMinItems: { populate: 'never' },
} as const;

export interface SchemaFormProps {
  /** Names the form: the draft key is 'clearing.draft.<formId>'. */
  formId: string;
  /** Keep the same object between renders (a new one rebuilds the form). */
  schema: RJSFSchema;
  /** Keep the same object between renders. */
  uiSchema?: UiSchema;
  /** The engine's precompiled validator (tests may pass @rjsf/validator-ajv8's). */
  validator: ValidatorType<Answers>;
  /** Moves and rewords Ajv errors for rjsf (the engine's error translation). */
  transformErrors?: ErrorTransformer<Answers>;
  /** Initial answers; a saved draft is laid over them. */
  formData?: Answers;
  /**
   * Called with the answers (those hidden by a condition left out) and the chosen files. Return a
   * promise: the form counts as submitting until it settles, and a rejection keeps the draft (the
   * page shows the failure).
   */
  onSubmit: (answers: Answers, files: FilesByPointer) => void | Promise<void>;
  /** Review mode: every answer shown, nothing editable, no draft kept. */
  readonly?: boolean;
  disabled?: boolean;
  /** Errors from elsewhere (the server), shown whether or not the field was touched. */
  extraErrors?: ErrorSchema<Answers>;
  /** Keep a draft in localStorage (default: unless readonly). */
  keepDraft?: boolean;
  /**
   * What of the answers a draft may hold. Defaults to the engine's `draftSafeAnswers` for a
   * known form id, else to the schema-driven `draftSafe`.
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
    formId,
    schema,
    uiSchema,
    validator,
    transformErrors,
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

  const [initial] = useState<Answers>(() => ({
    ...formData,
    ...(keepDraft ? loadDraft(formId) : undefined),
  }));
  const [engine] = useState(() => {
    const created = createFormEngine();
    created.answers.set(initial);
    return created;
  });
  const [statusStore] = useState(() => new FormStatusStore());
  // The page's submit area reaches StatusArea through a store, never through rjsf's props: rjsf's
  // Form skips re-rendering when only functions changed (its deepEquals counts any two functions
  // equal), so a render function closing over new page state (a failure alert) would never show.
  const [submitAreaSlot] = useState(() => new ValueStore<SchemaFormProps['children']>(children));
  useLayoutEffect(() => submitAreaSlot.set(children));
  const formContext = useMemo(() => ({ engine }), [engine]);
  const formRef = useRef<Form<Answers>>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  // Mutable bookkeeping that must not re-render anything.
  const answers = useRef<Answers>(initial);
  const touched = useRef(new Set<string>());
  const submitAttempted = useRef(false);
  const interacted = useRef(false);
  const baseline = useRef(JSON.stringify(initial));
  const scheduled = useRef(false);

  const [shownErrors, setShownErrors] = useState<ErrorSchema<Answers>>();
  const [focusRequest, setFocusRequest] = useState(0);

  const schemaUtils = useMemo(
    () => createSchemaUtils(validator, schema, DEFAULTS_BEHAVIOUR),
    [validator, schema],
  );
  const validate = useCallback(
    (data: Answers) => {
      const visible = (schemaUtils.omitExtraData(schema, data) ?? {}) as Answers;
      const { errors, errorSchema } = validator.validateFormData(
        visible,
        schema,
        undefined,
        transformErrors,
        uiSchema,
      );
      return {
        valid: errors.length === 0,
        errorSchema: collapseWidgetErrors(errorSchema, uiSchema),
      };
    },
    [schemaUtils, validator, schema, uiSchema, transformErrors],
  );

  const saver = useMemo(
    () =>
      keepDraft
        ? createDraftSaver(formId, draftFilter ?? defaultDraftFilter(formId, schema, uiSchema))
        : undefined,
    [keepDraft, formId, draftFilter, schema, uiSchema],
  );
  useEffect(() => () => saver?.flush(), [saver]);

  /** Errors for touched fields (all after a submit attempt), re-rendering only when they change. */
  const refreshShownErrors = useCallback(() => {
    const current = formRef.current?.state.formData ?? answers.current;
    const { errorSchema } = validate(current);
    const shown = filterErrorSchema(
      errorSchema,
      (id) => submitAttempted.current || touched.current.has(id),
      idPrefix,
    );
    setShownErrors((previous) =>
      JSON.stringify(previous ?? {}) === JSON.stringify(shown) ? previous : shown,
    );
  }, [validate, idPrefix]);

  /** After a commit: share the answers with widgets, update the status, save the draft. */
  const afterChange = useCallback(() => {
    scheduled.current = false;
    const current = answers.current;
    engine.answers.set(current);
    const json = JSON.stringify(current);
    if (!interacted.current) baseline.current = json;
    statusStore.set({ valid: validate(current).valid, dirty: json !== baseline.current });
    if (interacted.current) saver?.save(current);
    latest.current.onAnswersChange?.(current);
  }, [engine, statusStore, validate, saver]);

  const scheduleAfterChange = useCallback(() => {
    if (scheduled.current) return;
    scheduled.current = true;
    // rjsf may report a change while rendering (defaults filled in its constructor)
    queueMicrotask(afterChange);
  }, [afterChange]);

  const handleChange = useCallback(
    (event: IChangeEvent<Answers>) => {
      answers.current = event.formData ?? {};
      scheduleAfterChange();
    },
    [scheduleAfterChange],
  );

  const handleBlur = useCallback(
    (id: string) => {
      interacted.current = true;
      touched.current.add(id);
      // after rjsf has applied a change committed in the same event
      queueMicrotask(refreshShownErrors);
    },
    [refreshShownErrors],
  );

  const handleFocus = useCallback(() => {
    interacted.current = true;
  }, []);

  const handleSubmit = useCallback(
    async (event: IChangeEvent<Answers>) => {
      if (statusStore.get().submitting) return;
      const submitted = event.formData ?? {};
      submitAttempted.current = true;
      statusStore.set({ submitAttempted: true });
      const { valid, errorSchema } = validate(submitted);
      setShownErrors(errorSchema);
      if (!valid) {
        setFocusRequest((n) => n + 1);
        return;
      }
      statusStore.set({ submitting: true });
      try {
        await latest.current.onSubmit(submitted, engine.files.forAnswers(submitted));
        saver?.cancel();
        clearDraft(formId);
        baseline.current = JSON.stringify(answers.current);
        statusStore.set({ dirty: false });
      } catch {
        // The page reports the failure; the answers and draft stay for another try.
      } finally {
        statusStore.set({ submitting: false });
      }
    },
    [statusStore, validate, engine, saver, formId],
  );

  // Widgets write other answers through the engine (rjsf applies each as a change of that field).
  useEffect(
    () =>
      engine.writer.connect((pointer, value) =>
        // rjsf types the value as the whole form's data, though it sets the one field
        formRef.current?.setFieldValue(parsePointer(pointer), value as Answers),
      ),
    [engine],
  );

  // The status of the initial answers (defaults included).
  useEffect(() => {
    answers.current = formRef.current?.state.formData ?? answers.current;
    scheduleAfterChange();
  }, [scheduleAfterChange]);

  useEffect(() => {
    latest.current.onStatusChange?.(statusStore.get());
    return statusStore.subscribe(() => latest.current.onStatusChange?.(statusStore.get()));
  }, [statusStore]);

  useEffect(() => {
    if (focusRequest > 0 && shownErrors)
      focusFirstError(containerRef.current, shownErrors, idPrefix);
  }, [focusRequest, shownErrors, idPrefix]);

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

function defaultDraftFilter(
  formId: string,
  schema: RJSFSchema,
  uiSchema: UiSchema | undefined,
): (answers: Answers) => Answers {
  if (isFormId(formId) && availableFormIds().includes(formId)) {
    return (answers) => draftSafeAnswers(formId, answers);
  }
  return (answers) => draftSafe(schema, uiSchema, answers);
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
    .map((id) => focusTarget(container, id))
    .filter((target): target is HTMLElement => !!target)
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  targets[0]?.focus();
}

function focusTarget(container: HTMLElement, id: string): HTMLElement | null {
  const element = container.ownerDocument.getElementById(id);
  if (!element || !container.contains(element)) return null;
  if (element instanceof HTMLInputElement && element.type === 'file') {
    return container.ownerDocument.getElementById(`${id}-choose`);
  }
  return element.matches('input, select, textarea, button, [tabindex]')
    ? element
    : element.querySelector<HTMLElement>('input, select, textarea, button, [tabindex]');
}
