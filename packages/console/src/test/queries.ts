import { type ByRoleMatcher, type ByRoleOptions, within } from '@testing-library/react';

/** textsByRole is the text of each element with this role inside `container`, in document order. */
export function textsByRole(
  container: HTMLElement,
  role: ByRoleMatcher,
  options?: ByRoleOptions,
): Array<string | null> {
  return within(container)
    .getAllByRole(role, options)
    .map((element) => element.textContent);
}
