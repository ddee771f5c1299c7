import { Fragment, useSyncExternalStore, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { FormStep } from '../../shared/forms/model/steps';
import { COUNTRY_CHOICES } from './countries';
import { formatInternational } from './format';
import { sectionHeadingId } from './SectionProgress';
import type { Answers, FormSession } from './session';

type Schema = RJSFSchema & Record<string, unknown>;

const NOT_ANSWERED = 'Not answered';

/**
 * The read-only review of a session: every question step's sections drawn from the same schema
 * and uiSchema as the form (each prompt and its answer as text), answers a condition hides left
 * out, with an Edit link per section that returns to its step. Never a second copy of the
 * questions: a prompt changed in the schema changes here too.
 */
export function SchemaReview({
  session,
  onEdit,
}: {
  session: FormSession;
  /** Edit: back to the step, landing at the section's heading (null: the step's). */
  onEdit: (stepIndex: number, sectionHeading: string | null) => void;
}) {
  const answers = useSyncExternalStore(session.engine.answers.subscribe, () => session.answers());
  const steps = session.steps ?? [];
  const root = session.schemaUtils.retrieveSchema(session.schema, answers) as Schema;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
      {steps.map((step, stepIndex) =>
        step.review
          ? null
          : step.sections.map((section, sectionIndex) => {
              const rows = section.fields.flatMap((name) =>
                reviewRows(session, root, name, answers[name], session.uiSchema?.[name]),
              );
              if (rows.length === 0) return null;
              const title = section.title ?? step.title;
              const headingId = `review-${step.id}-${sectionIndex}`;
              return (
                <Box component="section" key={headingId} aria-labelledby={headingId}>
                  <Box
                    sx={{
                      display: 'flex',
                      justifyContent: 'space-between',
                      alignItems: 'baseline',
                      borderBottom: 1,
                      borderColor: 'divider',
                      mb: 1,
                    }}
                  >
                    <Typography id={headingId} component="h3" variant="h6">
                      {title}
                    </Typography>
                    <EditLink
                      step={step}
                      title={title}
                      onClick={() =>
                        onEdit(
                          stepIndex,
                          section.title ? sectionHeadingId(step.id, sectionIndex) : null,
                        )
                      }
                    />
                  </Box>
                  <Box component="dl" sx={{ m: 0 }}>
                    {rows}
                  </Box>
                </Box>
              );
            }),
      )}
    </Box>
  );
}

function EditLink({
  step,
  title,
  onClick,
}: {
  step: FormStep;
  title: string;
  onClick: () => void;
}) {
  return (
    <Link
      component="button"
      type="button"
      variant="body2"
      onClick={onClick}
      aria-label={`Edit ${title} (${step.title})`}
    >
      Edit
    </Link>
  );
}

/** A prompt and its answer; an object's or a list's answers nested under it. */
function reviewRows(
  session: FormSession,
  parent: Schema,
  name: string,
  value: unknown,
  ui: unknown,
  key = name,
): ReactNode[] {
  const raw = parent.properties?.[name];
  if (!raw || typeof raw !== 'object') return [];
  const schema = session.schemaUtils.retrieveSchema(raw as RJSFSchema, value as Answers) as Schema;
  const prompt = schema.title ?? name;
  const uiSchema = (ui ?? {}) as UiSchema;
  if (schema.type === 'object' && !schema['x-file'] && isObject(value)) {
    return [
      <Row key={key} prompt={prompt} answer="" />,
      <Box key={`${key}-nested`} component="dd" sx={{ ml: 2, mb: 1 }}>
        <Box component="dl" sx={{ m: 0 }}>
          {orderOf(schema, uiSchema).flatMap((child) =>
            reviewRows(session, schema, child, value[child], uiSchema[child], `${key}.${child}`),
          )}
        </Box>
      </Box>,
    ];
  }
  const items = schema.items as Schema | undefined;
  if (schema.type === 'array' && items && items.type === 'object' && Array.isArray(value)) {
    if (value.length === 0) return [<Row key={key} prompt={prompt} answer={NOT_ANSWERED} />];
    return [
      <Row key={key} prompt={prompt} answer="" />,
      ...value.map((item, index) => {
        const itemSchema = session.schemaUtils.retrieveSchema(items, item as Answers) as Schema;
        const itemUi = (uiSchema.items ?? {}) as UiSchema;
        return (
          <Box key={`${key}.${index}`} component="dd" sx={{ ml: 2, mb: 1 }}>
            <Typography component="h4" variant="subtitle2">
              {`${items.title ?? prompt} ${index + 1}`}
            </Typography>
            <Box component="dl" sx={{ m: 0 }}>
              {isObject(item) &&
                orderOf(itemSchema, itemUi).flatMap((child) =>
                  reviewRows(
                    session,
                    itemSchema,
                    child,
                    item[child],
                    itemUi[child],
                    `${key}.${index}.${child}`,
                  ),
                )}
            </Box>
          </Box>
        );
      }),
    ];
  }
  return [<Row key={key} prompt={prompt} answer={answerText(schema, value, name)} />];
}

function Row({ prompt, answer }: { prompt: string; answer: string }) {
  return (
    <Fragment>
      <Typography component="dt" variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {prompt}
      </Typography>
      {answer && (
        <Typography component="dd" sx={{ ml: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {answer}
        </Typography>
      )}
    </Fragment>
  );
}

/** The properties of an object in the uiSchema's order (the rest after, as rjsf's '*'). */
function orderOf(schema: Schema, ui: UiSchema): string[] {
  const names = Object.keys(schema.properties ?? {});
  const order = Array.isArray(ui['ui:order']) ? (ui['ui:order'] as string[]) : [];
  const listed = order.filter((name) => names.includes(name));
  return [...listed, ...names.filter((name) => !listed.includes(name))];
}

/** An answer as the user reads it: option titles, Yes/No, a file's name, a masked identifier. */
export function answerText(schema: Schema, value: unknown, name = ''): string {
  if (value === undefined || value === null || value === '') return NOT_ANSWERED;
  if (schema.const === true) return value === true ? 'Signed' : 'Not signed';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (isObject(value) && typeof value.name === 'string') return value.name;
  if (Array.isArray(value)) {
    return value.length === 0 ? NOT_ANSWERED : value.map((item) => String(item)).join(', ');
  }
  const options = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  const option = options?.find((o) => o && typeof o === 'object' && o.const === value);
  if (option?.title) return option.title;
  const text = String(value as string | number);
  // An SSN or passport number is shown by its last four characters only (the screen may be seen
  // by others; the user typed the whole of it).
  if (schema['x-sensitive'] === true && /ssn|socialsecurity|passport/i.test(name)) {
    return `${'•'.repeat(Math.max(0, text.length - 4))}${text.slice(-4)}`;
  }
  if (/country/i.test(name)) {
    return COUNTRY_CHOICES.find((choice) => choice.value === text)?.label ?? text;
  }
  // A phone number grouped as the widget shows it ('+1 212 555 0142').
  if (schema['x-phone'] !== undefined && text.startsWith('+')) return formatInternational(text);
  return text;
}

function isObject(value: unknown): value is Answers {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
