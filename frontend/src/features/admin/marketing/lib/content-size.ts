import {
  MARKETING_BATCH_SIZE,
  MARKETING_LARGE_BATCH_SIZE,
  MARKETING_LARGE_CONTENT_BYTES,
  MARKETING_MAX_CONTENT_BYTES,
  MARKETING_STRIP_IMAGES_BYTES,
  MARKETING_WARN_CONTENT_BYTES,
} from '@ppr/contracts';

export interface ContentSize {
  readonly bytes: number;
  /** Over 2000 KB: refused ('Email content too large'). */
  readonly tooLarge: boolean;
  /** Over 1000 KB: the warning of SPEC section 9. */
  readonly warning: boolean;
  /** Over 500 KB: embedded base64 images are removed before sending. */
  readonly imagesRemoved: boolean;
  /** 50 recipients a batch, or 20 over 200 KB. */
  readonly batchSize: number;
}

export function contentBytes(content: string): number {
  return new TextEncoder().encode(content).length;
}

/** The size rules of SPEC section 9 for a marketing email's content. */
export function contentSize(content: string): ContentSize {
  const bytes = contentBytes(content);
  return {
    bytes,
    tooLarge: bytes > MARKETING_MAX_CONTENT_BYTES,
    warning: bytes > MARKETING_WARN_CONTENT_BYTES,
    imagesRemoved: bytes > MARKETING_STRIP_IMAGES_BYTES,
    batchSize: bytes > MARKETING_LARGE_CONTENT_BYTES ? MARKETING_LARGE_BATCH_SIZE : MARKETING_BATCH_SIZE,
  };
}

export function formatKilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
}
