/** Where a validation issue sits, as people write it: `['steps', 0, 'id']` → `steps[0].id`. */
export const formatPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), '');
