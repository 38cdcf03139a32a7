export { SearchHost } from './SearchHost';
export { useSearchOpen } from './search-store';
