/** Error codes every API error carries as `{message, code}` (docs/server.md#security). */
export const ERROR_CODES = {
  validation: 'VALIDATION_FAILED',
  badRequest: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHENTICATED',
  invalidCredentials: 'INVALID_CREDENTIALS',
  usernameTaken: 'USERNAME_TAKEN',
  notFound: 'NOT_FOUND',
  /** Signed in and able to see the series, but the role does not allow this (e.g. a viewer writing). */
  forbidden: 'FORBIDDEN',
  /** The id of a create is already taken by another row. */
  conflict: 'CONFLICT',
  planLimit: 'PLAN_LIMIT',
  featureLocked: 'FEATURE_LOCKED',
  idempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  rateLimited: 'RATE_LIMITED',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  paymentsNotConfigured: 'PAYMENTS_NOT_CONFIGURED',
  internal: 'INTERNAL',
  /** The amount the page showed is not the product's price (the answer carries the real one). */
  priceMismatch: 'PRICE_MISMATCH',
  /** A collaboration invite that expired (410). */
  gone: 'GONE',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export interface ApiErrorBody {
  message: string;
  code: ErrorCode;
  /** Per-field messages for validation failures, keyed by dotted path. */
  fields?: Record<string, string>;
}

export const GENERIC_MESSAGES = {
  notFound: 'Not found',
  unauthenticated: 'Please sign in to continue',
  invalidCredentials: 'Invalid credentials',
  usernameTaken: 'Username already exists',
  rateLimited: 'Too many attempts. Please wait a moment and try again.',
  payloadTooLarge: 'The request is too large',
  unsupportedMediaType: 'Requests must be sent as JSON',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different request',
  internal: 'Something went wrong on our side. Your work is safe; please try again.',
  paymentsNotConfigured: 'Payments are not configured on this server',
  invalidJson: 'The request body is not valid JSON',
} as const;
