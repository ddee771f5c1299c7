import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RJSFSchema, WidgetProps } from '@rjsf/utils';
import { engineOf } from '../../../src/web/forms/engine';
import { SchemaForm, type Answers } from '../../../src/web/forms/SchemaForm';
import { REGISTRY_WIDGETS } from '../../../src/web/forms/widgets/registry';
import { formOf } from '../../forms';

/** A widget that, like the LEI lookup, writes its siblings' answers through the engine. */
function FillingWidget({ registry }: WidgetProps) {
  return (
    <button
      type="button"
      onClick={() => engineOf(registry)?.writer.write({ '/name': 'Acme Ltd', '/city': undefined })}
    >
      Fill
    </button>
  );
}

const schema: RJSFSchema = {
  type: 'object',
  properties: {
    lookup: { type: 'string', title: 'Lookup' },
    name: { type: 'string', title: 'Name' },
    city: { type: 'string', title: 'City' },
  },
};

describe('answers written by a widget to other fields', () => {
  it('become ordinary answers: shown in their fields and committed', async () => {
    REGISTRY_WIDGETS.filling = FillingWidget;
    const onAnswersChange = vi.fn<(answers: Answers) => void>();
    const user = userEvent.setup();
    render(
      <SchemaForm
        form={formOf({ schema, uiSchema: { lookup: { 'ui:widget': 'filling' } } })}
        keepDraft={false}
        formData={{ city: 'Paris' }}
        onAnswersChange={onAnswersChange}
        onSubmit={() => {}}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Fill' }));
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Acme Ltd'));
    expect(screen.getByLabelText('City')).toHaveValue('');
    await waitFor(() => expect(onAnswersChange.mock.lastCall?.[0]).toEqual({ name: 'Acme Ltd' }));
    delete REGISTRY_WIDGETS.filling;
  });
});
