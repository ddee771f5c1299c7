import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import type { WidgetProps } from '@rjsf/utils';
import { useEsignConsentGate } from '../esignConsent/EsignConsentProvider';
import { describedBy, stringOption } from './a11y';
import { BELOW_DESKTOP } from '../../app/theme';

/**
 * One legal agreement row (business spec §2.3): a signed/unsigned icon, the title (a link to the
 * document when the schema names one with `x-document`) and a button that signs or removes the
 * signature. The answer is a boolean. Button labels come from `ui:options.signLabel` and
 * `ui:options.removeLabel`, defaulting to the spec's wording. Before the applicant's first
 * signature the page's e-sign consent gate (EsignConsentProvider) asks for the consent.
 */
export function AgreementWidget(props: WidgetProps) {
  const {
    id,
    value,
    label,
    schema,
    uiSchema,
    options,
    rawErrors,
    required,
    disabled,
    readonly,
    onChange,
    onBlur,
    onFocus,
  } = props;
  const signed = value === true;
  const titleId = `${id}-title`;
  const document = typeof schema['x-document'] === 'string' ? schema['x-document'] : undefined;
  const signLabel = stringOption(options, 'signLabel', 'Electronically Sign');
  const removeLabel = stringOption(options, 'removeLabel', 'Remove Signature');
  const consent = useEsignConsentGate();
  const toggle = async () => {
    // ESIGN 7001(c): the first signature waits for the e-sign consent; Cancel signs nothing.
    if (!signed && consent && !(await consent.request())) return;
    onChange(!signed);
    onBlur(id, !signed);
  };
  const hasErrors = !!rawErrors && rawErrors.length > 0;
  return (
    <Box
      role="group"
      aria-labelledby={titleId}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 2,
        py: 1,
        // On a narrow screen the button goes under the text when both do not fit one line, so
        // the text keeps the width (it ran down one word a line beside the button at 390 px).
        [BELOW_DESKTOP]: { flexWrap: 'wrap', '& > .MuiButton-root': { ml: 5 } },
      }}
    >
      {signed ? (
        <CheckCircleIcon color="success" aria-hidden />
      ) : (
        <RadioButtonUncheckedIcon color={hasErrors ? 'error' : 'disabled'} aria-hidden />
      )}
      <Typography id={titleId} sx={{ flex: '1 1 14rem' }} color={hasErrors ? 'error' : undefined}>
        {document ? (
          <Link href={document} target="_blank" rel="noopener">
            {label}
          </Link>
        ) : (
          label
        )}
        {required ? <span aria-hidden> *</span> : null}
      </Typography>
      {readonly ? null : (
        <Button
          id={id}
          variant={signed ? 'outlined' : 'contained'}
          onClick={() => void toggle()}
          onFocus={() => onFocus(id, value)}
          onBlur={() => onBlur(id, value)}
          disabled={disabled}
          aria-describedby={describedBy(id, { rawErrors, schema, uiSchema, extra: [titleId] })}
        >
          {signed ? removeLabel : signLabel}
        </Button>
      )}
    </Box>
  );
}
