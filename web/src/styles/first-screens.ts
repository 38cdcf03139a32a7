/**
 * The first screens' own stylesheets, imported by main.tsx only, so that they are part of the
 * entry's stylesheet: plain CSS with global class names (each beside its `…Classes.ts` map).
 */
import '@/components/BrandMark.css';
import '@/features/layout/layout.css';
import '@/features/progress/DashboardSkeleton.css';
