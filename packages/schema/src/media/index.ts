/**
 * Pictures' shared rules (docs/decisions/0022-pictures-on-the-server.md): how a field names a
 * picture, what bytes are accepted (sniffed, sized, stripped), the plan's limits and the messages.
 * A subpath of its own (`@chronicler/schema/media`), so screens that never touch a picture load none of it.
 */
export * from './reference.ts';
export * from './inspect.ts';
export * from './limits.ts';
export * from './messages.ts';
