export * from './wire.ts';
export * from './story-order.ts';
export * from './resolve.ts';
