export * from './ids.ts';
export * from './errors.ts';
export * from './messages.ts';
export * from './entities.ts';
export * from './plans.ts';
export * from './products.ts';
export * from './rules.ts';
export * from './toasts.ts';
