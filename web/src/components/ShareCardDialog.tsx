import '@mantine/core/styles/Image.layer.css';
import { useEffect, useState } from 'react';
import { Alert, Button, Group, Image, Skeleton, Stack, Text } from '@mantine/core';
import { IconDownload, IconShare } from '@tabler/icons-react';
import { Modal } from '@/lib/first-load';
import { type ShareCardContent, SHARE_CARD_HEIGHT, SHARE_CARD_WIDTH, canShareFiles, canvasToPng, downloadFile, drawShareCard, shareFileName, themeShareColors } from '@/lib/shareCard';
import { FeatureGate } from './FeatureGate';

export interface ShareCardDialogProps {
  opened: boolean;
  /** The milestone to share (kept while the dialog closes). */
  content: ShareCardContent | null;
  onClose: () => void;
}

type Drawn = { kind: 'drawing' } | { kind: 'ready'; file: File; url: string } | { kind: 'failed'; message: string };

/** Draws the card when opened (in the theme showing now) and frees the image when closed. */
function useDrawnCard(content: ShareCardContent | null, opened: boolean): Drawn {
  const [drawn, setDrawn] = useState<Drawn>({ kind: 'drawing' });
  useEffect(() => {
    if (!content || !opened) return;
    let url: string | null = null;
    let cancelled = false;
    setDrawn({ kind: 'drawing' });
    const canvas = document.createElement('canvas');
    drawShareCard(canvas, content, themeShareColors())
      .then(() => canvasToPng(canvas))
      .then((blob) => {
        if (cancelled) return;
        const file = new File([blob], shareFileName(content), { type: 'image/png' });
        url = URL.createObjectURL(file);
        setDrawn({ kind: 'ready', file, url });
      })
      .catch((error: unknown) => {
        if (!cancelled) setDrawn({ kind: 'failed', message: error instanceof Error ? error.message : 'The image could not be made.' });
      });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [content, opened]);
  return drawn;
}

/**
 * The share card of a milestone (a book completed, a target reached, an achievement earned): the
 * image as it will be shared, with Share (the device's share sheet, when it takes images) and
 * Download. Behind `sharingMilestones`: a plan without it sees the card under the upgrade prompt.
 */
export function ShareCardDialog({ opened, content, onClose }: ShareCardDialogProps) {
  const drawn = useDrawnCard(content, opened);
  const [sharing, setSharing] = useState(false);
  const [shareError, setShareError] = useState<string | null>(null);
  useEffect(() => setShareError(null), [content]);

  const share = async (file: File) => {
    setSharing(true);
    setShareError(null);
    try {
      await navigator.share({ files: [file], title: content?.figure ?? 'Chronicler' });
    } catch (error) {
      // The author closing the share sheet is no failure.
      if (!(error instanceof DOMException && error.name === 'AbortError')) setShareError('The share sheet could not open. Download the image instead.');
    } finally {
      setSharing(false);
    }
  };

  return (
    <Modal opened={opened && content !== null} onClose={onClose} title="Share your milestone" centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <FeatureGate feature="sharingMilestones">
        <Stack gap="md" data-testid="share-card">
          {drawn.kind === 'ready' ? (
            <Image
              src={drawn.url}
              alt={content ? `${content.kicker}: ${content.figure}${content.title ? `, ${content.title}` : ''}` : ''}
              radius="md"
              style={{ aspectRatio: `${SHARE_CARD_WIDTH} / ${SHARE_CARD_HEIGHT}`, border: '1px solid var(--mantine-color-default-border)' }}
              data-testid="share-card-image"
            />
          ) : drawn.kind === 'failed' ? (
            <Alert color="red" title="The card could not be drawn">
              {drawn.message}
            </Alert>
          ) : (
            <Skeleton radius="md" style={{ aspectRatio: `${SHARE_CARD_WIDTH} / ${SHARE_CARD_HEIGHT}` }} aria-label="Drawing the card" />
          )}
          <Text size="sm" c="dimmed">
            The image shows the title and the figure only — never your manuscript. It is made on this device.
          </Text>
          {shareError ? (
            <Text size="sm" c="red" role="alert">
              {shareError}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Not now
            </Button>
            {drawn.kind === 'ready' && canShareFiles(drawn.file) ? (
              <Button variant="light" leftSection={<IconShare size={16} aria-hidden />} loading={sharing} onClick={() => void share(drawn.file)}>
                Share
              </Button>
            ) : null}
            <Button leftSection={<IconDownload size={16} aria-hidden />} disabled={drawn.kind !== 'ready'} onClick={() => drawn.kind === 'ready' && downloadFile(drawn.file)}>
              Download image
            </Button>
          </Group>
        </Stack>
      </FeatureGate>
    </Modal>
  );
}
