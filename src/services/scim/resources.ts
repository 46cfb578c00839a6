/** SCIM resources as JSON (RFC 7643): pure shapes from what the services read. */

export const SCHEMA = {
  user: 'urn:ietf:params:scim:schemas:core:2.0:User',
  group: 'urn:ietf:params:scim:schemas:core:2.0:Group',
  list: 'urn:ietf:params:scim:api:messages:2.0:ListResponse',
  patch: 'urn:ietf:params:scim:api:messages:2.0:PatchOp',
  error: 'urn:ietf:params:scim:api:messages:2.0:Error',
  serviceProviderConfig: 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig',
  resourceType: 'urn:ietf:params:scim:schemas:core:2.0:ResourceType',
  schema: 'urn:ietf:params:scim:schemas:core:2.0:Schema',
} as const;

/** The most resources one list answer holds (`count` above it is lowered to it). */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 100;

/** A person as SCIM sees them in one workspace. */
export interface ScimUserRecord {
  id: string;
  email: string;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  externalId: string | null;
  active: boolean;
  created: string;
  lastModified: string;
}

/** A team as a SCIM Group. */
export interface ScimGroupRecord {
  id: string;
  name: string;
  externalId: string | null;
  members: Array<{ id: string; email: string }>;
  created: string;
  lastModified: string;
}

const withoutNulls = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

export function userResource(base: string, u: ScimUserRecord) {
  const name = withoutNulls({ formatted: u.name, givenName: u.givenName, familyName: u.familyName });
  return {
    schemas: [SCHEMA.user],
    id: u.id,
    ...(u.externalId !== null ? { externalId: u.externalId } : {}),
    userName: u.email,
    ...(Object.keys(name).length > 0 ? { name } : {}),
    ...(u.name !== null ? { displayName: u.name } : {}),
    emails: [{ value: u.email, type: 'work', primary: true }],
    active: u.active,
    meta: { resourceType: 'User', created: u.created, lastModified: u.lastModified, location: `${base}/Users/${u.id}` },
  };
}

export function groupResource(base: string, g: ScimGroupRecord) {
  return {
    schemas: [SCHEMA.group],
    id: g.id,
    ...(g.externalId !== null ? { externalId: g.externalId } : {}),
    displayName: g.name,
    members: g.members.map((m) => ({ value: m.id, display: m.email, type: 'User', $ref: `${base}/Users/${m.id}` })),
    meta: { resourceType: 'Group', created: g.created, lastModified: g.lastModified, location: `${base}/Groups/${g.id}` },
  };
}

/** A page of resources (RFC 7644 §3.4.2). */
export const listResponse = (resources: unknown[], totalResults: number, startIndex: number) => ({
  schemas: [SCHEMA.list],
  totalResults,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

export const errorBody = (status: number, detail: string, scimType?: string) => ({
  schemas: [SCHEMA.error],
  status: String(status),
  ...(scimType ? { scimType } : {}),
  detail,
});

/** What this service provider supports (RFC 7643 §5). */
export const serviceProviderConfig = (base: string) => ({
  schemas: [SCHEMA.serviceProviderConfig],
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_PAGE_SIZE },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'Bearer token',
      description: 'The workspace SCIM token from POST /api/sso/scim-token, as `Authorization: Bearer …`',
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${base}/ServiceProviderConfig` },
});

const resourceType = (base: string, name: 'User' | 'Group', endpoint: string, schema: string) => ({
  schemas: [SCHEMA.resourceType],
  id: name,
  name,
  endpoint,
  schema,
  meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${name}` },
});

export const resourceTypes = (base: string) => [resourceType(base, 'User', '/Users', SCHEMA.user), resourceType(base, 'Group', '/Groups', SCHEMA.group)];

const attr = (name: string, type: string, extra: Record<string, unknown> = {}) => ({
  name,
  type,
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

/** The attributes this service provider keeps, per schema (RFC 7643 §7): a subset of the core ones. */
export const schemas = (base: string) => [
  {
    schemas: [SCHEMA.schema],
    id: SCHEMA.user,
    name: 'User',
    description: 'A member of the workspace',
    attributes: [
      attr('userName', 'string', { required: true, uniqueness: 'server', mutability: 'immutable' }),
      attr('name', 'complex', { subAttributes: [attr('formatted', 'string'), attr('givenName', 'string'), attr('familyName', 'string')] }),
      attr('displayName', 'string'),
      attr('emails', 'complex', {
        multiValued: true,
        mutability: 'readOnly',
        subAttributes: [attr('value', 'string'), attr('type', 'string'), attr('primary', 'boolean')],
      }),
      attr('active', 'boolean'),
      attr('externalId', 'string', { caseExact: true }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${SCHEMA.user}` },
  },
  {
    schemas: [SCHEMA.schema],
    id: SCHEMA.group,
    name: 'Group',
    description: 'A team of the workspace',
    attributes: [
      attr('displayName', 'string', { required: true }),
      attr('members', 'complex', {
        multiValued: true,
        subAttributes: [attr('value', 'string', { mutability: 'immutable' }), attr('display', 'string', { mutability: 'readOnly' })],
      }),
      attr('externalId', 'string', { caseExact: true }),
    ],
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${SCHEMA.group}` },
  },
];
