/**
 * The brand mark's class names (BrandMark), defined in BrandMark.css: plain CSS with global names,
 * not a CSS module, so that main.tsx puts it in the entry's stylesheet (a CSS module shared by the
 * entry and a lazy chunk became a file of its own: one more request before the first screen).
 * styles/first-screens.test.ts checks each name against the stylesheet.
 */
export const brandMarkClasses = {
  brand: 'brand-mark-brand',
  icon: 'brand-mark-icon',
  name: 'brand-mark-name',
} as const;
