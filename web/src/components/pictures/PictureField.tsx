/**
 * The picture picker of a form (docs/decisions/0023-pictures-on-the-device.md): the current
 * picture, Choose picture (a file; on a phone the photo library or the camera, and Take photo for
 * the camera at once), drag-and-drop and paste on the focused field, Remove. A chosen file is
 * checked by its bytes, then cropped to the field's shape in a dialog loaded on first use. Behind
 * the plan's `multimedia` flag in the author's own series, with the app's upgrade pattern.
 */
import './styles';
import { Suspense, lazy, useId, useRef, useState, type ClipboardEvent, type DragEvent } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconCamera, IconPhotoPlus, IconTrash, IconUpload } from '@tabler/icons-react';
import { FeatureGate } from '../FeatureGate';
import type { PictureShape } from './model/crop';
import type { DecodedPicture, makePictures } from './model/pipeline';
import { PictureImage } from './PictureImage';
import { usePictureUploadState } from './pictureSource';
import classes from './pictures.module.css';

const CropDialog = lazy(() => import('./CropDialog'));

/** The preview's size on screen, by shape. */
const PREVIEW: Record<PictureShape, { width: number; height: number }> = {
  cover: { width: 80, height: 120 },
  portrait: { width: 96, height: 96 },
  place: { width: 160, height: 90 },
};

export interface PictureFieldProps {
  /** 'Cover', 'Portrait', 'Picture'. */
  label: string;
  shape: PictureShape;
  /** The field's value: an https URL, a `media:` reference, or ''. */
  value: string;
  onChange: (value: string) => void;
  /** The series the picture belongs to; null: nothing can be chosen yet. */
  seriesId: string | null;
  /** The author's own series: the plan's `multimedia` flag applies (a shared series is the owner's plan, checked by the server). */
  gated: boolean;
  /** A viewer: the picture only. */
  disabled?: boolean;
  /** False where the form shows the picture already (the character dialog's portrait at its top). */
  showPreview?: boolean;
  /** Test seams for the crop dialog. */
  decode?: (file: Blob) => Promise<DecodedPicture>;
  make?: typeof makePictures;
}

function prefersCamera(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
}

export function PictureField(props: PictureFieldProps) {
  const field = <PictureFieldBody {...props} />;
  return props.gated && !props.disabled ? <FeatureGate feature="multimedia">{field}</FeatureGate> : field;
}

function PictureFieldBody({ label, shape, value, onChange, seriesId, disabled = false, showPreview = true, decode, make }: PictureFieldProps) {
  const labelId = useId();
  const helpId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<Blob | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const upload = usePictureUploadState(value);
  const usable = !disabled && seriesId !== null;

  const choose = async (chosen: Blob | null | undefined) => {
    if (!chosen || !usable) return;
    setError(null);
    setChecking(true);
    try {
      const { checkPictureFile } = await import('./model/pipeline');
      await checkPictureFile(chosen);
      setFile(chosen);
    } catch (e) {
      setError(e instanceof Error && e.name === 'PictureError' ? e.message : 'This picture could not be read. Try another one.');
    } finally {
      setChecking(false);
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0]);
  };
  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    const pasted = [...event.clipboardData.files][0];
    if (!pasted) return;
    event.preventDefault();
    void choose(pasted);
  };

  const preview = PREVIEW[shape];
  return (
    <Stack gap={4}>
      <Text id={labelId} size="sm" fw={500}>
        {label}
      </Text>
      <div
        className={classes.field}
        data-dragging={dragging}
        role="group"
        aria-labelledby={labelId}
        aria-describedby={usable ? helpId : undefined}
        tabIndex={usable ? 0 : undefined}
        onDragOver={
          usable
            ? (e) => {
                e.preventDefault();
                setDragging(true);
              }
            : undefined
        }
        onDragLeave={() => setDragging(false)}
        onDrop={usable ? onDrop : undefined}
        onPaste={usable ? onPaste : undefined}
        data-testid="picture-field"
      >
        {showPreview ? (
          <div className={classes.preview} data-shape={shape} style={preview}>
            <PictureImage value={value} seriesId={seriesId} variant="thumb" alt={value ? `${label} preview` : ''} fallback={<IconPhotoPlus size={32} stroke={1.5} aria-hidden />} />
          </div>
        ) : null}
        <Stack gap={6} miw={0} style={{ flex: 1 }}>
          {usable ? (
            <>
              <Group gap="xs">
                <Button size="xs" variant="light" leftSection={<IconUpload size={14} aria-hidden />} onClick={() => fileInput.current?.click()} loading={checking}>
                  {value ? 'Change picture' : 'Choose picture'}
                </Button>
                {prefersCamera() ? (
                  <Button size="xs" variant="light" leftSection={<IconCamera size={14} aria-hidden />} onClick={() => cameraInput.current?.click()}>
                    Take photo
                  </Button>
                ) : null}
                {value ? (
                  <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} aria-hidden />} onClick={() => onChange('')}>
                    Remove
                  </Button>
                ) : null}
              </Group>
              <Text id={helpId} size="xs" c="dimmed">
                JPEG, PNG, WebP or GIF. Drop a picture here, or paste one while this box is focused.
              </Text>
            </>
          ) : null}
          {error ? (
            <Text size="xs" c="red" role="alert">
              {error}
            </Text>
          ) : null}
          {upload.kind === 'on-device' ? (
            <Text size="xs" c="dimmed" data-testid="picture-on-device">
              Kept on this device; it uploads when you are online.
            </Text>
          ) : null}
          {upload.kind === 'refused' ? (
            <Alert color="red" p="xs" title="Not uploaded" role="alert">
              <Text size="xs">{upload.message} The picture stays on this device only: remove it or choose a smaller one.</Text>
            </Alert>
          ) : null}
        </Stack>
        {usable ? (
          <>
            <input
              ref={fileInput}
              className={classes.hiddenInput}
              type="file"
              accept="image/*"
              aria-label={`Choose a picture file for the ${label.toLowerCase()}`}
              onChange={(e) => {
                void choose(e.currentTarget.files?.[0]);
                e.currentTarget.value = '';
              }}
            />
            <input
              ref={cameraInput}
              className={classes.hiddenInput}
              type="file"
              accept="image/*"
              capture={shape === 'portrait' ? 'user' : 'environment'}
              tabIndex={-1}
              aria-hidden
              onChange={(e) => {
                void choose(e.currentTarget.files?.[0]);
                e.currentTarget.value = '';
              }}
            />
          </>
        ) : null}
      </div>
      {file && seriesId ? (
        <Suspense fallback={null}>
          <CropDialog
            file={file}
            shape={shape}
            seriesId={seriesId}
            onClose={() => setFile(null)}
            onDone={(reference) => {
              setFile(null);
              onChange(reference);
            }}
            {...(decode ? { decode } : {})}
            {...(make ? { make } : {})}
          />
        </Suspense>
      ) : null}
    </Stack>
  );
}
