/** What the story routes share beyond the route kit (routes/kit.ts): the 422 about a request as a whole. */
import { ERROR_CODES } from '@chronicler/schema';
import { HttpError } from '../http/errors.ts';

/** A 422 about the request as a whole, in the shape of validation failures. */
export function invalid(message: string, field = '_'): HttpError {
  return new HttpError(422, ERROR_CODES.validation, message, { [field]: message });
}
