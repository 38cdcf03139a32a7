/**
 * The five one-time premium products (spec 000 §9). The client shows this list and the server
 * charges these prices: the price comes from here, never from the client's `amount`
 * (docs/server.md#billing).
 */
import './zod-browser.ts';
import { z } from 'zod';
import { formatCents } from './plans.ts';

export const PRODUCT_IDS = [
  'custom-theme-pack',
  'writers-toolkit',
  'inspiration-pack',
  'premium-support',
  'gift-subscription',
] as const;
export type ProductId = (typeof PRODUCT_IDS)[number];
export const productIdSchema = z.enum(PRODUCT_IDS);

export interface PremiumProduct {
  readonly id: ProductId;
  readonly name: string;
  readonly description: string;
  /** One-time price in cents. */
  readonly priceCents: number;
  readonly currency: 'usd';
  readonly benefits: readonly string[];
}

export const PRODUCTS: readonly PremiumProduct[] = Object.freeze(
  (
    [
      {
        id: 'custom-theme-pack',
        name: 'Custom Theme Pack',
        description: 'Five extra themes to give your writing space a new look.',
        priceCents: 499,
        currency: 'usd',
        benefits: ['5 extra themes', 'Use them on every device', 'Yours to keep'],
      },
      {
        id: 'writers-toolkit',
        name: "Writer's Toolkit",
        description: 'Templates and worksheets for plotting, characters and world building.',
        priceCents: 999,
        currency: 'usd',
        benefits: ['Plot structure templates', 'Character and world-building worksheets', 'Yours to keep'],
      },
      {
        id: 'inspiration-pack',
        name: 'Inspiration Pack',
        description: '100 writing prompts to get past the blank page.',
        priceCents: 799,
        currency: 'usd',
        benefits: ['100 writing prompts', 'Prompts for plot, character and setting', 'Yours to keep'],
      },
      {
        id: 'premium-support',
        name: 'Premium Support',
        description: 'One month of priority help from our support team.',
        priceCents: 1499,
        currency: 'usd',
        benefits: ['1 month of priority support', 'Faster answers to your questions'],
      },
      {
        id: 'gift-subscription',
        name: 'Gift Subscription',
        description: 'Give a fellow author one month of The Wordsmith tier.',
        priceCents: 1999,
        currency: 'usd',
        benefits: ['One month of Wordsmith tier access', 'A gift for another author'],
      },
    ] satisfies PremiumProduct[]
  ).map((p) => Object.freeze({ ...p, benefits: Object.freeze([...p.benefits]) })),
);

export function isProductId(value: unknown): value is ProductId {
  return typeof value === 'string' && (PRODUCT_IDS as readonly string[]).includes(value);
}

/** The product with this id, or undefined for an unknown id. */
export function productById(id: string): PremiumProduct | undefined {
  return PRODUCTS.find((p) => p.id === id);
}

/** A product price for display: 499 → "$4.99". */
export function formatProductPrice(product: PremiumProduct): string {
  return formatCents(product.priceCents);
}

/**
 * Where Purchase Now goes: /checkout?productId={id}&amount={price} (000 §2), the price in dollars
 * with two decimals. The amount is for display only; the server charges the catalogue price.
 */
export function checkoutHref(product: PremiumProduct): string {
  const amount = (product.priceCents / 100).toFixed(2);
  return `/checkout?productId=${encodeURIComponent(product.id)}&amount=${amount}`;
}
