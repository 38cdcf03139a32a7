/** The errors a local write throws before anything is written (mutators.ts, kinds.ts). */

/** A body that failed its schema: `message` is the schema's first message, `fields` per field. */
export class ValidationError extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, string>,
  ) {
    super(message);
    this.name = 'ValidationError';
  }
}

/** A referenced row that is not in the local store (deleted, or never synced here). */
export class NotFoundLocallyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundLocallyError';
  }
}
