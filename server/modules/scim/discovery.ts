import { SCIM_MAX_RESULTS, SCIM_SCHEMA } from '../../../common/schemas/scim';

/** RFC 7644 §5: what this service provider supports. Fixed but for the addresses. */
export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: [SCIM_SCHEMA.serviceProviderConfig],
    documentationUri: `${baseUrl.replace(/\/scim\/v2$/, '')}/api/docs`,
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SCIM_MAX_RESULTS },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description:
          'A SCIM token an admin generates in Verity (Admin Dashboard, SSO), sent as "Authorization: Bearer".',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

const RESOURCE_TYPES = [
  {
    id: 'User',
    name: 'User',
    endpoint: '/Users',
    description: 'A person of the organization',
    schema: SCIM_SCHEMA.user,
  },
  {
    id: 'Group',
    name: 'Group',
    endpoint: '/Groups',
    description: 'A group that can give its members a role',
    schema: SCIM_SCHEMA.group,
  },
] as const;

export function resourceTypes(baseUrl: string) {
  return RESOURCE_TYPES.map((t) => ({
    schemas: [SCIM_SCHEMA.resourceType],
    ...t,
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${t.id}` },
  }));
}

type Attribute = {
  name: string;
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued: boolean;
  required: boolean;
  caseExact: boolean;
  mutability: 'readOnly' | 'readWrite' | 'immutable';
  returned: 'always' | 'default';
  uniqueness: 'none' | 'server' | 'global';
  description: string;
  subAttributes?: Attribute[];
  referenceTypes?: string[];
};

const attr = (
  name: string,
  description: string,
  more: Partial<Omit<Attribute, 'name' | 'description'>> = {},
): Attribute => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  description,
  ...more,
});

const USER_ATTRIBUTES: Attribute[] = [
  attr('userName', 'Unique across Verity among active users; compared without regard to case.', {
    required: true,
    uniqueness: 'server',
  }),
  attr('name', 'The person’s name.', {
    type: 'complex',
    subAttributes: [
      attr('formatted', 'Given and family name (read-only).', { mutability: 'readOnly' }),
      attr('givenName', 'Given name.'),
      attr('familyName', 'Family name.'),
    ],
  }),
  attr('displayName', 'Given and family name, or userName (read-only).', { mutability: 'readOnly' }),
  attr('emails', 'One work address: the primary (or first) one sent.', {
    type: 'complex',
    multiValued: true,
    required: true,
    subAttributes: [
      attr('value', 'The address.', { uniqueness: 'server' }),
      attr('type', 'Always work.'),
      attr('primary', 'Always true.', { type: 'boolean' }),
    ],
  }),
  attr('active', 'False: the person cannot sign in; their sessions and API tokens have ended.', { type: 'boolean' }),
  attr('groups', 'The SCIM groups the person belongs to.', {
    type: 'complex',
    multiValued: true,
    mutability: 'readOnly',
    subAttributes: [
      attr('value', 'The group’s id.', { mutability: 'readOnly' }),
      attr('display', 'The group’s displayName.', { mutability: 'readOnly' }),
      attr('$ref', 'The group’s address.', { type: 'reference', mutability: 'readOnly', referenceTypes: ['Group'] }),
    ],
  }),
];

const GROUP_ATTRIBUTES: Attribute[] = [
  attr(
    'displayName',
    'Unique in the organization, compared without regard to case; matched by the group→role mappings.',
    {
      required: true,
      uniqueness: 'server',
    },
  ),
  attr('members', 'Users of the organization.', {
    type: 'complex',
    multiValued: true,
    subAttributes: [
      attr('value', 'The user’s id.', { mutability: 'immutable' }),
      attr('display', 'The user’s userName.', { mutability: 'readOnly' }),
      attr('$ref', 'The user’s address.', { type: 'reference', mutability: 'immutable', referenceTypes: ['User'] }),
    ],
  }),
];

export function schemas(baseUrl: string) {
  return [
    { id: SCIM_SCHEMA.user, name: 'User', description: 'User account', attributes: USER_ATTRIBUTES },
    { id: SCIM_SCHEMA.group, name: 'Group', description: 'Group', attributes: GROUP_ATTRIBUTES },
  ].map((s) => ({
    schemas: [SCIM_SCHEMA.schema],
    ...s,
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${s.id}` },
  }));
}
