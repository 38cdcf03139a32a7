/**
 * Class names of the brand mark's (BrandMark) stylesheet, BrandMark.css: plain CSS with global names, not a CSS module, so that
 * main.tsx can put it in the entry's stylesheet (a module shared by the entry and a lazy chunk
 * became a file of its own, one more request before the first screen; issue 16). Each name is
 * checked against the stylesheet by styles/firstScreenStyles.test.ts.
 */
export const brandMarkClasses = {
  brand: 'brand-mark-brand',
  icon: 'brand-mark-icon',
  name: 'brand-mark-name',
} as const;
