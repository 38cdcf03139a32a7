/**
 * The crop dialog (docs/decisions/0023-pictures-on-the-device.md): the whole picture with the crop
 * frame of its shape over it. Drag the frame, or with the crop area focused: arrow keys move it
 * (Shift: further), + and - zoom, 0 starts again; the slider and the wheel zoom too. "Use picture"
 * makes the display size and the thumbnail, keeps them on the device and answers their reference.
 * Loaded on first use with the pipeline.
 */
import './styles';
import { useEffect, useMemo, useRef, useState, type ComponentProps, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { Alert, Button, Group, Loader, Slider, Stack, Text, VisuallyHidden } from '@mantine/core';
import { formatPictureRef, storeLocalPicture } from '@chronicler/sync-client';
import { Modal } from '@/lib/first-load';
import { useDb } from '@/lib/sync';
import {
  MAX_ZOOM,
  PICTURE_SHAPES,
  ZOOM_STEP,
  type CropState,
  type PictureShape,
  cropForKey,
  cropRect,
  dragCrop,
  initialCrop,
  normaliseCrop,
  zoomCrop,
} from './model/crop';
import { type DecodedPicture, PICTURE_MESSAGES, PictureError, decodePicture, makePictures } from './model/pipeline';
import classes from './pictures.module.css';

/**
 * The crop dialog opens over a form's dialog, and Mantine's modals each close on an Escape heard on
 * the window, the outer one first — losing the form. An Escape whose target carries this mark is
 * left alone by every modal; the crop dialog marks what can hold focus in it and closes itself.
 */
const KEEP_ESCAPE = { 'data-mantine-stop-propagation': 'true' } as const;

/** The crop area's largest size on screen. */
const STAGE_MAX = { width: 440, height: 320 };

export interface CropDialogProps {
  /** The checked file to crop; the dialog is open while there is one. */
  file: Blob | null;
  shape: PictureShape;
  seriesId: string;
  onClose: () => void;
  /** The picture was made and kept on the device: its field value. */
  onDone: (reference: string) => void;
  /** Test seam: decodes the file (the browser's createImageBitmap by default). */
  decode?: (file: Blob) => Promise<DecodedPicture>;
  /** Test seam: makes the pictures (the canvas pipeline by default). */
  make?: typeof makePictures;
}

export default function CropDialog({ file, shape, seriesId, onClose, onDone, decode = decodePicture, make = makePictures }: CropDialogProps) {
  const spec = PICTURE_SHAPES[shape];
  return (
    <Modal
      opened={file !== null}
      onClose={onClose}
      title={spec.title}
      centered
      radius="md"
      size="lg"
      closeOnEscape={false}
      closeButtonProps={{ 'aria-label': 'Close', ...KEEP_ESCAPE }}
    >
      {file ? <CropBody key={fileKey(file)} file={file} shape={shape} seriesId={seriesId} onClose={onClose} onDone={onDone} decode={decode} make={make} /> : null}
    </Modal>
  );
}

const keys = new WeakMap<Blob, number>();
let nextKey = 1;
function fileKey(file: Blob): number {
  let key = keys.get(file);
  if (key === undefined) keys.set(file, (key = nextKey++));
  return key;
}

function CropBody({ file, shape, seriesId, onClose, onDone, decode, make }: Required<Omit<CropDialogProps, 'file'>> & { file: Blob }) {
  const db = useDb();
  const { aspect, noun } = PICTURE_SHAPES[shape];
  const [decoded, setDecoded] = useState<DecodedPicture | null>(null);
  const [crop, setCrop] = useState<CropState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const drag = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    let cancelled = false;
    let got: DecodedPicture | null = null;
    decode(file).then(
      (d) => {
        got = d;
        if (cancelled) return d.close();
        setDecoded(d);
        setCrop(initialCrop(d.size));
      },
      (e: unknown) => {
        if (!cancelled) setError(e instanceof PictureError ? e.message : PICTURE_MESSAGES.unreadable);
      },
    );
    return () => {
      cancelled = true;
      got?.close();
    };
  }, [file, decode]);

  const size = decoded?.size ?? null;
  const scale = size ? Math.min(STAGE_MAX.width / size.width, STAGE_MAX.height / size.height) : 1;
  const stage = size ? { width: Math.round(size.width * scale), height: Math.round(size.height * scale) } : null;

  const stageWidth = stage?.width ?? 0;
  const stageHeight = stage?.height ?? 0;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !decoded) return;
    canvas.width = stageWidth;
    canvas.height = stageHeight;
    // jsdom has no 2D context; a browser always has one.
    canvas.getContext('2d')?.drawImage(decoded.source, 0, 0, stageWidth, stageHeight);
  }, [decoded, stageWidth, stageHeight]);

  const rect = useMemo(() => (size && crop ? cropRect(size, aspect, crop) : null), [size, crop, aspect]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!size || !crop) return;
    const next = cropForKey(size, aspect, crop, event.key, event.shiftKey);
    if (!next) return;
    event.preventDefault();
    setCrop(next);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = { x: event.clientX, y: event.clientY };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const from = drag.current;
    if (!from || !size || !crop) return;
    drag.current = { x: event.clientX, y: event.clientY };
    setCrop(dragCrop(size, aspect, crop, (event.clientX - from.x) / scale, (event.clientY - from.y) / scale));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onWheel = (event: WheelEvent<HTMLDivElement>) => {
    if (!size || !crop) return;
    setCrop(zoomCrop(size, aspect, crop, event.deltaY < 0 ? ZOOM_STEP : 1 / ZOOM_STEP));
  };

  const save = async () => {
    if (!decoded || !rect) return;
    setSaving(true);
    setError(null);
    try {
      const { display, thumb } = await make(decoded, rect);
      const [displaySha, thumbSha] = [
        await storeLocalPicture(db, { ...display, seriesId }),
        await storeLocalPicture(db, { ...thumb, seriesId }),
      ];
      onDone(formatPictureRef({ display: displaySha!, thumb: thumbSha! }));
    } catch (e) {
      setError(e instanceof PictureError ? e.message : 'The picture could not be kept on this device. Free some space and try again.');
      setSaving(false);
    }
  };

  const describe = rect && size
    ? `Showing ${Math.round((rect.width / size.width) * 100)}% of the picture's width, from ${Math.round((rect.x / size.width) * 100)}% from the left and ${Math.round((rect.y / size.height) * 100)}% from the top.`
    : '';

  return (
    <Stack
      gap="md"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onClose();
      }}
    >
      {error ? (
        <Alert color="red" role="alert" title="This picture cannot be used">
          {error}
        </Alert>
      ) : null}
      {!decoded && !error ? (
        <Group gap="xs" justify="center" mih={120}>
          <Loader size="sm" />
          <Text size="sm">Reading the picture…</Text>
        </Group>
      ) : null}
      {decoded && stage && rect && crop ? (
        <>
          <div
            className={classes.stage}
            style={{ width: stage.width, height: stage.height, maxWidth: '100%' }}
            tabIndex={0}
            role="group"
            aria-label={`Crop the ${noun}`}
            aria-describedby="crop-help crop-where"
            onKeyDown={onKeyDown}
            onWheel={onWheel}
            {...KEEP_ESCAPE}
            data-autofocus
            data-testid="crop-stage"
          >
            <canvas ref={canvasRef} aria-hidden />
            <div
              className={classes.frame}
              data-shape={shape}
              data-testid="crop-frame"
              data-crop={`${Math.round(rect.x)},${Math.round(rect.y)},${Math.round(rect.width)},${Math.round(rect.height)}`}
              style={{ left: rect.x * scale, top: rect.y * scale, width: rect.width * scale, height: rect.height * scale }}
              onPointerDown={onPointerDown}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={onPointerUp}
            />
          </div>
          <Text id="crop-help" size="xs" c="dimmed" ta="center">
            Drag the frame, or use the arrow keys to move it and + or - to zoom.
          </Text>
          <VisuallyHidden id="crop-where" aria-live="polite">
            {describe}
          </VisuallyHidden>
          <Slider
            thumbProps={{ 'data-mantine-stop-propagation': 'true' } as ComponentProps<'div'>}
            aria-label="Zoom"
            min={1}
            max={MAX_ZOOM}
            step={0.05}
            value={crop.zoom}
            label={(v) => `${Math.round(v * 100)}%`}
            onChange={(zoom) => setCrop(normaliseCrop(decoded.size, aspect, { ...crop, zoom }))}
          />
        </>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} {...KEEP_ESCAPE}>
          Cancel
        </Button>
        <Button onClick={() => void save()} loading={saving} disabled={!decoded} {...KEEP_ESCAPE}>
          Use picture
        </Button>
      </Group>
    </Stack>
  );
}
