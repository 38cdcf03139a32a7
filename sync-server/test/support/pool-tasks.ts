/** Tasks for the worker pool's own tests (test/workers/pool.test.ts): one that answers, one that fails, one that kills its worker. */
export const tasks = {
  double: (input: number): number => input * 2,
  refuse: (): never => {
    throw new Error('refused on purpose');
  },
  die: (): never => process.exit(3),
};
