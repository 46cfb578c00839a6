import { createSource } from '../../src/services/ingest/sources';
import { createService, createTeam } from '../../src/services/workspace';
import { dashboardInBrowser, logInInBrowser, saveScreenshot } from '../support/browser';
import { signUpAndLogIn } from '../support/dashboard';

// The grouping editor in a real browser (docs/grouping.md): a rule built in the form, its live
// preview and its replay over the service's real alerts shown before Save, and, once saved, new
// alerts of one host folded into one incident by the real ingestion.
const suite = dashboardInBrowser({ page: { viewport: { width: 1280, height: 900 } } });
const app = () => suite.app;

async function send(ingestUrl: string, title: string, host: string): Promise<string> {
  const res = await fetch(ingestUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title, severity: 'high', metadata: { labels: { host } } }),
  });
  if (res.status !== 202) throw new Error(`ingestion answered ${res.status}`);
  return ((await res.json()) as { incident_id: string }).incident_id;
}

describe('the grouping editor in Chromium', () => {
  it('when a rule grouping by host is built, replayed over the service’s past alerts and saved, then the replay shows the fold and new alerts of one host share one incident', async () => {
    const owner = await signUpAndLogIn(app(), suite.stack.orm);
    const team = await createTeam(suite.stack.orm, { organizationId: owner.organizationId, name: 'Storage' });
    const service = await createService(suite.stack.orm, { organizationId: owner.organizationId, teamId: team.id, name: 'Database' });
    const source = await createSource(suite.stack.orm, {
      organizationId: owner.organizationId,
      serviceId: service.id,
      name: 'Prometheus',
      ingestBaseUrl: suite.stack.urls.ingest,
    });
    // The past: three distinct alerts, two of them from db-1, each its own incident today.
    const past = [await send(source.ingest_url, 'Disk full on db-1', 'db-1'), await send(source.ingest_url, 'Replication lag on db-1', 'db-1')];
    past.push(await send(source.ingest_url, 'Disk full on db-2', 'db-2'));
    expect(new Set(past).size).toBe(3);

    const { page } = suite;
    await logInInBrowser(page, app(), owner);
    // From the service's own page.
    await page.goto(`${app()}/services/${service.id}`);
    await page
      .getByRole('region', { name: 'Grouping' })
      .getByText(/^No rules/)
      .waitFor();
    await page.getByRole('button', { name: 'Grouping rules' }).click();
    const dialog = page.getByRole('dialog', { name: 'Grouping rules of Database' });
    await dialog.getByRole('button', { name: 'Add rule' }).click();
    const rule = dialog.getByLabel('Rule 1');
    await rule.getByRole('textbox', { name: 'Name' }).fill('per host');
    await rule.getByRole('textbox', { name: 'Group by' }).fill('labels.host');
    // The live preview on the last 24 h, then the replay this draft needs before it can be saved.
    await dialog.getByText('Last 24 h with this draft: 3 incidents → 2').waitFor();
    expect(await dialog.getByRole('button', { name: 'Save rules' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await dialog.getByText(/^3 alerts replayed: 3 incidents → 2/).waitFor();
    await dialog.getByRole('table', { name: 'Groups' }).getByRole('cell', { name: 'labels.host=db-1' }).waitFor();
    await saveScreenshot(page, 'grouping-editor');
    await dialog.getByRole('button', { name: 'Save rules' }).click();
    await dialog.getByText('Saved: new alerts are grouped by these rules.').waitFor();
    await page.keyboard.press('Escape');
    await page
      .getByRole('region', { name: 'Grouping' })
      .getByText(/^per host: matching alerts join/)
      .waitFor();

    // What was saved is what ingestion now does: two new db-1 alerts, one incident; db-2 its own.
    const first = await send(source.ingest_url, 'CPU high on db-1', 'db-1');
    const second = await send(source.ingest_url, 'Memory high on db-1', 'db-1');
    const other = await send(source.ingest_url, 'CPU high on db-2', 'db-2');
    expect(second).toBe(first);
    expect(other).not.toBe(first);
    const incident = (await (await page.request.get(`${app()}/api/incidents/${first}`)).json()).data;
    expect(incident.grouping).toMatchObject({ rule: 'per host', key: 'labels.host=db-1' });
    expect(incident.alert_count).toBe(2);
  }, 120_000);
});
