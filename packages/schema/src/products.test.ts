import { describe, expect, it } from 'vitest';
import { PRODUCTS, PRODUCT_IDS, checkoutHref, formatProductPrice, isProductId, productById, productIdSchema } from './products.ts';

describe('premium products (000 §9)', () => {
  it('sells the five products at the spec prices in USD', () => {
    expect(PRODUCTS.map((p) => [p.id, p.priceCents, p.currency])).toEqual([
      ['custom-theme-pack', 499, 'usd'],
      ['writers-toolkit', 999, 'usd'],
      ['inspiration-pack', 799, 'usd'],
      ['premium-support', 1499, 'usd'],
      ['gift-subscription', 1999, 'usd'],
    ]);
    expect(PRODUCTS.map((p) => p.id)).toEqual([...PRODUCT_IDS]);
  });

  it('describes what each product gives', () => {
    expect(productById('custom-theme-pack')?.benefits).toContain('5 extra themes');
    expect(productById('inspiration-pack')?.benefits).toContain('100 writing prompts');
    expect(productById('premium-support')?.benefits).toContain('1 month of priority support');
    expect(productById('gift-subscription')?.benefits).toContain('One month of Wordsmith tier access');
    for (const p of PRODUCTS) {
      expect(p.name).not.toBe('');
      expect(p.description).not.toBe('');
      expect(p.benefits.length).toBeGreaterThan(0);
    }
  });

  it('finds products by id and rejects unknown ids', () => {
    expect(productById('writers-toolkit')?.name).toBe("Writer's Toolkit");
    expect(productById('free-lunch')).toBeUndefined();
    expect(isProductId('gift-subscription')).toBe(true);
    expect(isProductId('GIFT-SUBSCRIPTION')).toBe(false);
    expect(productIdSchema.safeParse('inspiration-pack').success).toBe(true);
    expect(productIdSchema.safeParse('x').success).toBe(false);
  });

  it('shows prices in dollars and links Purchase Now to the checkout', () => {
    const pack = productById('custom-theme-pack');
    if (!pack) throw new Error('missing product');
    expect(formatProductPrice(pack)).toBe('$4.99');
    expect(checkoutHref(pack)).toBe('/checkout?productId=custom-theme-pack&amount=4.99');
  });

  it('cannot be changed at run time', () => {
    expect(Object.isFrozen(PRODUCTS)).toBe(true);
    for (const p of PRODUCTS) {
      expect(Object.isFrozen(p)).toBe(true);
      expect(Object.isFrozen(p.benefits)).toBe(true);
    }
  });
});
