export * from './wire.ts';
export * from './story-order.ts';
export * from './resolve.ts';
export * from './checks/names.ts';
export * from './checks/absent-characters.ts';
export * from './bible.ts';
export * from './as-of.ts';
