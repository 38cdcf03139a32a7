import { useState, type CSSProperties, type ReactNode } from 'react';
import { type PictureVariant, usePictureSource } from './pictureSource';

export interface PictureImageProps {
  /** The field's value: an https URL, a `media:` reference, or empty. */
  value: string | null | undefined;
  /** The series the row belongs to (where a missing picture is fetched from). */
  seriesId: string | null | undefined;
  variant?: PictureVariant;
  alt: string;
  className?: string;
  style?: CSSProperties;
  /** Drawn when there is no picture, while it is on its way, or when it fails to load. */
  fallback?: ReactNode;
}

/**
 * A picture field shown as an image (docs/decisions/0023-pictures-on-the-device.md): lazy and
 * decoded off the main thread, so a list of 200 portraits draws its text first.
 */
export function PictureImage({ value, seriesId, variant = 'thumb', alt, className, style, fallback = null }: PictureImageProps) {
  const { src } = usePictureSource(value, seriesId, variant);
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) return <>{fallback}</>;
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      className={className}
      style={style}
      onError={() => setFailed(src)}
    />
  );
}
