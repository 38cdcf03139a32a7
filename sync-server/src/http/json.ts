/** The content type of every JSON answer, for routes that send JSON text they already have. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
