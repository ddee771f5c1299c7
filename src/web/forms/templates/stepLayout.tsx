import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { getUiOptions, type ObjectFieldTemplateProps, type UiSchema } from '@rjsf/utils';
import { allProperties } from '../../../shared/forms/walk/schemaWalk';
import type { JsonSchema } from '../../../shared/forms/model/schemaTypes';
import type { FormStep } from '../../../shared/forms/model/steps';
import { sectionHeadingId } from '../SectionProgress';
import { isLongPrompt, PromptAbove } from '../widgets/PromptAbove';
import { PLAIN_TEXTAREA } from '../widgets/TextInput';

/** The wizard step a form draws (SchemaForm puts it in rjsf's formContext). */
function stepOf(props: ObjectFieldTemplateProps): FormStep | undefined {
  const context: unknown = props.registry.formContext;
  if (context && typeof context === 'object' && 'step' in context) {
    return (context as { step?: FormStep }).step;
  }
  return undefined;
}

/**
 * An object's fields. At the root of a wizard step: only that step's fields, grouped in its
 * sections under their headings. Everywhere: a field a condition hides whose uiSchema says
 * `"ui:options": {"whenHidden": "disabled"}` (the NFA 1101 explanations, the non-US address)
 * is drawn empty and disabled in its place instead of disappearing.
 */
export function objectFields(props: ObjectFieldTemplateProps): ReactNode {
  const step = stepOf(props);
  const isRoot = props.fieldPathId.path.length === 0;
  if (isRoot && step && !step.review) {
    return step.sections.map((section, index) => {
      const fields = section.fields
        .map((name) => fieldOrPlaceholder(props, name))
        .filter((node) => node !== null);
      if (fields.length === 0) return null;
      const headingId = sectionHeadingId(step.id, index);
      return (
        <Box
          component="section"
          key={headingId}
          aria-labelledby={section.title ? headingId : undefined}
          sx={{ display: 'flex', flexDirection: 'column', rowGap: '26px' }}
        >
          {section.title && (
            // Under the step's heading (h2); focusable: the progress list and Edit land here.
            <Typography
              id={headingId}
              component="h3"
              variant="h6"
              tabIndex={-1}
              sx={{ mt: index ? 2 : 0, scrollMarginTop: 16, '&:focus': { outline: 'none' } }}
            >
              {section.title}
            </Typography>
          )}
          {fields}
        </Box>
      );
    });
  }
  const order = (props.uiSchema?.['ui:order'] as string[] | undefined) ?? [];
  const present = new Set(props.properties.map((property) => property.name));
  const placeholders = order.filter(
    (name) => !present.has(name) && disabledWhenHidden(props, name),
  );
  if (placeholders.length === 0) return props.properties.map((property) => property.content);
  return order
    .filter((name) => name !== '*')
    .map((name) => fieldOrPlaceholder(props, name))
    .filter((node) => node !== null);
}

function disabledWhenHidden(props: ObjectFieldTemplateProps, name: string): boolean {
  const ui = props.uiSchema?.[name] as UiSchema | undefined;
  return getUiOptions(ui).whenHidden === 'disabled';
}

function fieldOrPlaceholder(props: ObjectFieldTemplateProps, name: string): ReactNode {
  const property = props.properties.find((p) => p.name === name);
  if (property) return property.content;
  if (!disabledWhenHidden(props, name)) return null;
  const root = props.registry.rootSchema as JsonSchema;
  let node: JsonSchema | undefined = root;
  for (const part of props.fieldPathId.path) {
    node = node ? allProperties(node, root)[String(part)] : undefined;
  }
  const title = node ? allProperties(node, root)[name]?.title : undefined;
  const ui = props.uiSchema?.[name] as UiSchema | undefined;
  const id = [props.fieldPathId.$id, name].join('_');
  // Always empty: three rows, as an empty autosizing textarea of at least three rows is.
  const textarea = getUiOptions(ui).widget === 'textarea';
  const prompt = title ?? name;
  const above = isLongPrompt(prompt, getUiOptions(ui).width);
  const field = (
    <TextField
      key={name}
      id={id}
      label={above ? undefined : prompt}
      value=""
      disabled
      fullWidth
      multiline={textarea}
      rows={textarea ? 3 : undefined}
      slotProps={textarea ? PLAIN_TEXTAREA : undefined}
    />
  );
  if (!above) return field;
  // The prompt above, as the question draws it once shown (TextInput).
  return (
    <div key={name}>
      <PromptAbove id={id} prompt={prompt} disabled />
      {field}
    </div>
  );
}
