import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CompatIntake } from './CompatIntake';
import { compatUrls } from './compat-intake';
import { renderWithApp } from '../test/render';

afterEach(cleanup);

const KEY = '0123456789abcdef0123456789abcdef';
const URL_ = 'https://ingest.example.com/k1xSecretSecretSecretSecret';

describe('compatUrls', () => {
  it('when a source has an ingestion URL, then the PagerDuty and Opsgenie URLs are under it', () => {
    expect(compatUrls(URL_)).toEqual({ pagerDuty: `${URL_}/v2/enqueue`, opsgenie: `${URL_}/` });
  });

  it('when a source has no URL to show, or a malformed one, then there are none', () => {
    expect(compatUrls(null)).toBeNull();
    expect(compatUrls('not a url')).toBeNull();
  });
});

describe('CompatIntake', () => {
  it('when shown for a source, then its routing key is readable and it, the PagerDuty URL and the Opsgenie API URL each have a copy button', () => {
    renderWithApp(<CompatIntake name="Prod" routingKey={KEY} webhookUrl={URL_} />);
    const group = screen.getByLabelText('PagerDuty and Opsgenie intake of Prod');
    expect(group.textContent).toContain(KEY);
    expect(screen.getByRole('button', { name: 'Copy the routing key of Prod' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy the PagerDuty Events API URL of Prod' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy the Opsgenie API URL of Prod' })).toBeTruthy();
    // The secret URL is copied, never printed.
    expect(group.textContent).not.toContain(URL_);
  });

  it('when the source has no URL to show, then only the key and its copy button are there', () => {
    renderWithApp(<CompatIntake name="Old" routingKey={KEY} webhookUrl={null} />);
    expect(screen.getByRole('button', { name: 'Copy the routing key of Old' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copy the PagerDuty Events API URL of Old' })).toBeNull();
  });
});
