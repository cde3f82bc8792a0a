/**
 * The window of page buttons (docs/product.md §2): at most `size` numbers that follow the current page
 * and are pinned at the start and the end; only pages 1..total.
 */
export function pageWindow(current: number, totalPages: number, size = 5): number[] {
  if (totalPages < 1) return [];
  const page = Math.min(Math.max(1, Math.floor(current)), totalPages);
  const half = Math.floor(size / 2);
  const start = Math.max(1, Math.min(page - half, totalPages - size + 1));
  const end = Math.min(totalPages, start + size - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

export function totalPages(total: number, pageSize: number): number {
  return Math.max(0, Math.ceil(total / pageSize));
}

/** "Showing X - Y of Z": the first and last position on a page. */
export function showingRange(page: number, pageSize: number, total: number): [number, number] {
  if (total <= 0) return [0, 0];
  const from = (page - 1) * pageSize + 1;
  return [Math.min(from, total), Math.min(page * pageSize, total)];
}
