/**
 * Pictures' bytes kept in memory, least recently served first out, up to a byte budget. A picture
 * is named by the hash of its bytes, so what is kept can never be stale, with one process or many:
 * only who may read it is decided per request, from the database (plugin.ts).
 */
export class PictureBytesCache {
  private readonly entries = new Map<string, Uint8Array>();
  private total = 0;

  constructor(private readonly budgetBytes: number) {}

  get(sha256: string): Uint8Array | undefined {
    const bytes = this.entries.get(sha256);
    if (bytes) {
      this.entries.delete(sha256);
      this.entries.set(sha256, bytes);
    }
    return bytes;
  }

  set(sha256: string, bytes: Uint8Array): void {
    if (bytes.length > this.budgetBytes / 4 || this.entries.has(sha256)) return;
    this.entries.set(sha256, bytes);
    this.total += bytes.length;
    for (const [key, kept] of this.entries) {
      if (this.total <= this.budgetBytes) break;
      this.entries.delete(key);
      this.total -= kept.length;
    }
  }

  /** Bytes held now. */
  get size(): number {
    return this.total;
  }
}

/** 64 MB: a few hundred display pictures and thousands of thumbnails. */
export const PICTURE_CACHE_BYTES = 64 * 1024 * 1024;
