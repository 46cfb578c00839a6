import { request } from '../../support/http';
import { startTestStack, type TestStack } from '../../support/stack';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(() => stack.stop());

const ROUTES = [
  ['get', '/organizations/{organization_id}/incidents'],
  ['post', '/organizations/{organization_id}/incidents'],
  ['get', '/organizations/{organization_id}/incidents/{incident_id}'],
  ...['acknowledge', 'investigate', 'resolve', 'close', 'reopen'].map((op) => ['post', `/organizations/{organization_id}/incidents/{incident_id}/${op}`]),
  ['post', '/organizations/{organization_id}/incidents/{incident_id}/notes'],
  ['get', '/organizations/{organization_id}/services'],
  ['get', '/organizations/{organization_id}/services/{service_id}'],
  ['get', '/organizations/{organization_id}/monitors'],
  ['get', '/organizations/{organization_id}/monitors/{monitor_id}'],
] as const;

describe('GET /api/v1/openapi.json', () => {
  it('when fetched without a token, then an OpenAPI 3.1 document describing exactly the thirteen routes', async () => {
    const res = await request('GET', `${stack.urls.app}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    const described = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => [m, p]));
    expect(described.sort()).toEqual(ROUTES.map(([m, p]) => [m, p]).sort());
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('when a route has a body or query, then the document carries the same constraints the validator enforces', async () => {
    const doc = (await request('GET', `${stack.urls.app}/api/v1/openapi.json`)).body;
    const create = doc.paths['/organizations/{organization_id}/incidents'].post;
    const bodySchema = resolveRef(doc, create.requestBody.content['application/json'].schema);
    expect(bodySchema.required.sort()).toEqual(['owning_team_id', 'severity', 'title']);
    expect(bodySchema.properties.title.maxLength).toBe(255);
    expect(bodySchema.properties.severity.enum).toEqual(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO']);
    expect(Object.keys(create.responses).sort()).toEqual(['201', '400', '401', '403', '415', '503']);
    const list = doc.paths['/organizations/{organization_id}/incidents'].get;
    const limit = list.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', schema: { maximum: 100, minimum: 1, default: 25 } });
    const ack = doc.paths['/organizations/{organization_id}/incidents/{incident_id}/acknowledge'].post;
    expect(Object.keys(ack.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404', '409']));
    expect(resolveRef(doc, ack.responses['409'].content['application/json'].schema).properties).toHaveProperty('code');
  });
});

function resolveRef(doc: any, schema: any): any {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split('/').pop();
  return doc.components.schemas[name];
}
