import { memo, useCallback, useRef, useSyncExternalStore, type ChangeEvent } from 'react';
import { flushSync } from 'react-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { WidgetProps } from '@rjsf/utils';
import { isFileReference, type FileReference } from '../../../shared/forms/model/types';
import { ApiError, NETWORK_FAILURE_MESSAGE, SESSION_EXPIRED_MESSAGE } from '../../api/client';
import { engineOf, useFieldPointer, type UploadState } from '../engine';
import { sessionOf } from '../session';
import { sniffFileType, UNKNOWN_FILE_TYPE } from '../fileType';
import { formatFileSize } from '../format';
import { describedBy, stringOption } from './a11y';

interface FileUploadProps extends WidgetProps {
  /** The `accept` attribute: 'image/*' or 'application/pdf'. */
  accept: string;
}

/**
 * One file answer. The chosen `File` goes to the form's files store under the answer's JSON
 * pointer; the answer itself is only `{name, type, size}` (never a data URL, which would put the
 * bytes into every render and draft). A real button opens the file dialog, so the field works
 * from the keyboard; the chosen file shows its name and size with a remove button. A form to
 * fill in and upload (the schema's `x-template`: the corporate guarantee) gets a download link,
 * worded by `ui:options.documentLabel`.
 */
export const FileUpload = memo(function FileUpload(props: FileUploadProps) {
  const {
    id,
    htmlName,
    value,
    label,
    hideLabel,
    required,
    disabled,
    readonly,
    rawErrors,
    schema,
    uiSchema,
    options,
    registry,
    accept,
    onChange,
    onBlur,
  } = props;
  const input = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const pointer = useFieldPointer();
  const engine = engineOf(registry);
  const files = engine?.files;
  const uploader = engine?.uploader;
  const uploads = engine?.uploads;
  const session = sessionOf(registry);
  const upload = useSyncExternalStore(
    uploads ? uploads.subscribe : noopSubscribe,
    useCallback(() => uploads?.get(pointer), [uploads, pointer]),
  );
  const uploadId = `${id}-upload`;
  const reference = isFileReference(value) ? value : undefined;
  const labelId = `${id}-label`;
  const chosenId = `${id}-chosen`;
  const chooseLabel = stringOption(
    options,
    'chooseLabel',
    reference ? 'Replace file' : 'Choose file',
  );
  const removeLabel = stringOption(options, 'removeLabel', 'Remove');
  const errorDescription = describedBy(id, { rawErrors, schema, uiSchema });
  const blankForm = typeof schema['x-template'] === 'string' ? schema['x-template'] : undefined;
  const documentLabel = stringOption(options, 'documentLabel', 'Download the form');

  // The latest choice wins when an earlier file's bytes are read later.
  const choice = useRef(0);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const current = ++choice.current;
    // The type its first bytes show, not the name's: the schema's type rule then refuses a
    // "PDF" that is not one, with the schema's message, before anything is sent.
    const type = await sniffFileType(file).catch(() => UNKNOWN_FILE_TYPE);
    if (current !== choice.current) return;
    files?.set(pointer, file);
    const answer: FileReference = { name: file.name, type, size: file.size };
    // Outside the input's event now: commit at once, so the blur's check sees the new answer
    // (as it does for a change made inside an event).
    flushSync(() => onChange(answer));
    onBlur(id, answer);
    // A file the form's own rules refuse (not a PDF, empty, too large) is not sent: the rule's
    // message already stands beside the field, and the file stays named there to remove.
    if (session && session.errorsAt(pointer, answer).length > 0) {
      uploads?.set(pointer, undefined);
      return;
    }
    void send(file, answer, current);
  };
  /**
   * Where files upload when chosen: the bytes go now, with their progress; the server's content
   * check answers beside the field. A refused file stays named with the server's reason as the
   * field's message (every other answer stays; removing or replacing it ends the refusal); no
   * answer at all keeps the file for another try (or for the submission, which then sends it).
   */
  const send = async (file: File, answer: FileReference, current: number) => {
    if (!uploader || !uploads) return;
    uploads.set(pointer, { kind: 'uploading', sent: 0, total: file.size });
    try {
      const held = await uploader.upload(pointer, file, (sent, total) => {
        if (current === choice.current) uploads.set(pointer, { kind: 'uploading', sent, total });
      });
      if (current !== choice.current) return;
      files?.hold(pointer);
      uploads.set(pointer, undefined);
      // The server's reading of the file (its type by content) is the answer.
      if (held.name !== answer.name || held.type !== answer.type || held.size !== answer.size) {
        onChange(held);
      }
    } catch (error) {
      if (current !== choice.current) return;
      const refused =
        error instanceof ApiError && error.status !== 401 && !retryableStatus(error.status);
      if (refused && session) {
        files?.set(pointer, undefined);
        uploads.set(pointer, undefined);
        const message = uploadFailure(error, pointer);
        // Its reason becomes the field's message, said at once (FieldTemplate's alert).
        session.refuseFile(pointer, answer, message);
        return;
      }
      if (refused) {
        files?.set(pointer, undefined);
        onChange(undefined);
      }
      uploads.set(pointer, {
        kind: 'failed',
        message: uploadFailure(error, pointer),
        retry: !refused,
      });
    }
  };
  const retry = () => {
    const file = files?.get(pointer);
    if (!file || !reference) return;
    void send(file, reference, ++choice.current);
  };
  const remove = () => {
    choice.current += 1;
    const wasHeld = files?.isHeld(pointer) ?? false;
    files?.set(pointer, undefined);
    uploads?.set(pointer, undefined);
    onChange(undefined);
    onBlur(id, undefined);
    if (wasHeld && uploader) {
      const current = choice.current;
      uploader.remove(pointer).catch((error: unknown) => {
        if (current === choice.current) {
          uploads?.set(pointer, {
            kind: 'failed',
            message: uploadFailure(error, pointer),
            retry: false,
          });
        }
      });
    }
    // The remove button is gone now: keep focus on the field (its choose button), not the page.
    chooseButton.current?.focus();
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, py: 1 }}>
      {!hideLabel && label ? (
        <FormLabel id={labelId} htmlFor={id} required={required}>
          {label}
        </FormLabel>
      ) : null}
      {blankForm ? (
        <Link
          href={blankForm}
          download
          target="_blank"
          rel="noopener"
          sx={{ alignSelf: 'flex-start' }}
        >
          {documentLabel}
        </Link>
      ) : null}
      <input
        ref={input}
        id={id}
        name={htmlName || id}
        type="file"
        accept={accept}
        hidden
        tabIndex={-1}
        disabled={disabled || readonly}
        onChange={(event) => void choose(event)}
        aria-describedby={errorDescription}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        {readonly ? null : (
          <Button
            ref={chooseButton}
            variant="outlined"
            id={`${id}-choose`}
            disabled={disabled}
            onClick={() => input.current?.click()}
            onKeyDown={(event) => {
              // Enter clicked on keydown, and Chromium opened no file chooser from that click
              // (Space, which clicks on keyup, did): Enter opens it on keyup too (issue 38 §4).
              if (event.key === 'Enter') event.preventDefault();
            }}
            onKeyUp={(event) => {
              if (event.key === 'Enter') input.current?.click();
            }}
            aria-labelledby={`${id}-choose ${labelId}`}
            aria-describedby={
              [errorDescription, reference ? chosenId : undefined, upload ? uploadId : undefined]
                .filter(Boolean)
                .join(' ') || undefined
            }
          >
            {chooseLabel}
          </Button>
        )}
        {reference ? (
          <>
            <Typography id={chosenId} variant="body2">
              {reference.name} ({formatFileSize(reference.size)})
            </Typography>
            {readonly ? null : (
              <Button
                size="small"
                disabled={disabled}
                onClick={remove}
                aria-label={`${removeLabel} ${reference.name}`}
              >
                {removeLabel}
              </Button>
            )}
          </>
        ) : null}
      </Box>
      {readonly ? null : (
        <UploadProgress id={uploadId} state={upload} name={reference?.name} onRetry={retry} />
      )}
    </Box>
  );
});

const noopSubscribe = () => () => {};

/** Statuses where sending the same file again may work (the server was busy or failed). */
const retryableStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/** Why an upload failed, in words: the schema's message from the server's check first. */
function uploadFailure(error: unknown, pointer: string): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return SESSION_EXPIRED_MESSAGE;
    return error.errors?.[pointer] ?? error.message;
  }
  return NETWORK_FAILURE_MESSAGE;
}

/** The upload under way (a determinate bar, the share sent) or why it failed, with Try again. */
function UploadProgress({
  id,
  state,
  name,
  onRetry,
}: {
  id: string;
  state: UploadState | undefined;
  name: string | undefined;
  onRetry: () => void;
}) {
  if (!state) return null;
  if (state.kind === 'uploading') {
    const percent = state.total > 0 ? Math.round((state.sent / state.total) * 100) : 0;
    return (
      <Box id={id} sx={{ display: 'flex', alignItems: 'center', gap: 2, maxWidth: 420 }}>
        <LinearProgress
          variant="determinate"
          value={percent}
          aria-label={name ? `Uploading ${name}` : 'Uploading'}
          sx={{ flex: 1 }}
        />
        <Typography variant="body2" color="text.secondary" sx={{ minWidth: 112 }}>
          Uploading… {percent}%
        </Typography>
      </Box>
    );
  }
  return (
    <Box id={id} sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
      <Typography role="alert" variant="body2" color="error">
        {state.message}
      </Typography>
      {state.retry && name ? (
        <Button size="small" onClick={onRetry} sx={{ whiteSpace: 'nowrap' }}>
          Try again
        </Button>
      ) : null}
    </Box>
  );
}
