import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToastContent } from '@/lib/copy/toasts';
import { saveChanges, toast, toastOutcome } from './toast';

const done: ToastContent = { title: 'Saved', variant: 'default' };
const failed: ToastContent = { title: 'Not saved', variant: 'destructive' };

afterEach(() => vi.restoreAllMocks());

describe('toastOutcome', () => {
  it('toasts the success and says so', async () => {
    const show = vi.spyOn(toast, 'show').mockReturnValue('id');
    expect(await toastOutcome(async () => 'row', done, failed)).toBe(true);
    expect(show).toHaveBeenCalledWith(done);
  });

  it("toasts the failure with the error's reason and says so", async () => {
    const show = vi.spyOn(toast, 'show').mockReturnValue('id');
    expect(await toastOutcome(() => Promise.reject(new Error('Disk full')), done, failed)).toBe(false);
    expect(show).toHaveBeenCalledWith({ ...failed, message: 'Disk full' });
  });

  it('builds the failure toast with a function when given one', async () => {
    const show = vi.spyOn(toast, 'show').mockReturnValue('id');
    await toastOutcome(() => Promise.reject(new Error('Gone')), done, (error) => ({ title: `Failed: ${(error as Error).message}`, variant: 'destructive' }));
    expect(show).toHaveBeenCalledWith({ title: 'Failed: Gone', variant: 'destructive' });
  });
});

describe('saveChanges', () => {
  it('sends nothing for an edit that changes no field, and counts it as saved', async () => {
    const show = vi.spyOn(toast, 'show').mockReturnValue('id');
    const write = vi.fn(async () => undefined);
    expect(await saveChanges({}, write, done, failed)).toBe(true);
    expect(write).not.toHaveBeenCalled();
    expect(show).not.toHaveBeenCalled();
  });

  it('sends a changed field and toasts the outcome', async () => {
    const show = vi.spyOn(toast, 'show').mockReturnValue('id');
    const write = vi.fn(async () => undefined);
    expect(await saveChanges({ name: 'Ged' }, write, done, failed)).toBe(true);
    expect(write).toHaveBeenCalledWith({ name: 'Ged' });
    expect(show).toHaveBeenCalledWith(done);
  });
});
