// A Mantine select's options: it renders them in a portal, where they stay display:none in jsdom
// (Mantine's transition never runs), so query them with `hidden: true`.
import { fireEvent, waitFor, within } from '@testing-library/react';

/** Opens `select` and answers queries within its list of options. */
export async function optionsOf(select: HTMLElement) {
  fireEvent.click(select);
  const listbox = await waitFor(() => document.getElementById(select.getAttribute('aria-controls') ?? '') ?? Promise.reject(new Error('no listbox')));
  return within(listbox);
}
